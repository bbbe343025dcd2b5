#!/usr/bin/env python3
"""Compare simtlab's run of tests/libs/*.cu with the H200's (docs/validation/h200-cudalibs.md).

usage: compare_cudalibs.py SIM_DIR GPU_DIR
Each DIR holds cub.txt, cur.txt, cbl.txt (the programs' stdout) and the files they
write: normals_*.txt (curand_normal bits) and, when present, gemm_*.bin (cuBLAS
outputs, float32). Prints a verdict per line and per file; exits 1 on any
difference beyond the stated bounds (integer and uniform lines: none; normals: 2e-6
absolute; GEMMs: the program's own tolerances, checked by the program itself).
"""
import math
import os
import re
import struct
import sys


def lines(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f]


def bits_token(line):
    m = re.search(r"bits ([0-9a-f]{8})", line)
    return m.group(1) if m else None


def compare_cub(sim, gpu):
    bad = 0
    g = {l[:28]: bits_token(l) for l in lines(os.path.join(gpu, "cub.txt")) if bits_token(l)}
    for l in lines(os.path.join(sim, "cub.txt")):
        t = bits_token(l)
        if not t:
            continue
        same = g.get(l[:28]) == t
        bad += not same
        print(f"CUB  {l[:28].strip():<34} simtlab {t}  H200 {g.get(l[:28])}  {'equal' if same else 'DIFFERENT'}")
    return bad


def compare_curand(sim, gpu):
    bad = 0
    keep = lambda ls: [l for l in ls if "normal" not in l]
    s, g = keep(lines(os.path.join(sim, "cur.txt"))), keep(lines(os.path.join(gpu, "cur.txt")))
    for a, b in zip(s, g):
        if a.startswith("exit") or a.startswith("NVIDIA"):
            continue
        same = a == b
        bad += not same
        print(f"RAND {'equal    ' if same else 'DIFFERENT'} {a}")
    for name in ("xorwow", "philox", "philox4"):
        fs, fg = os.path.join(sim, f"normals_{name}.txt"), os.path.join(gpu, f"normals_{name}.txt")
        if not (os.path.exists(fs) and os.path.exists(fg)):
            continue
        xs = [struct.unpack("<f", struct.pack("<I", int(v, 16)))[0] for v in lines(fs)]
        xg = [struct.unpack("<f", struct.pack("<I", int(v, 16)))[0] for v in lines(fg)]
        diff = max(abs(a - b) for a, b in zip(xs, xg))
        ulps = max(abs(int(a, 16) - int(b, 16)) for a, b in zip(lines(fs), lines(fg)))
        equal = sum(a == b for a, b in zip(lines(fs), lines(fg)))
        ok = diff <= 2e-6
        bad += not ok
        print(f"RAND curand_normal {name:<8} {len(xs)} values: {equal} bit-equal, max |diff| {diff:.3g}, "
              f"max {ulps} ulp  {'within 2e-6' if ok else 'BEYOND 2e-6'}")
    return bad


def compare_gemm(sim, gpu):
    bad = 0
    for f in sorted(os.listdir(gpu)):
        if not (f.startswith("gemm_") and f.endswith(".bin")) or not os.path.exists(os.path.join(sim, f)):
            continue
        read = lambda p: struct.unpack(f"<{os.path.getsize(p) // 4}f", open(p, "rb").read())
        a, b = read(os.path.join(sim, f)), read(os.path.join(gpu, f))
        scale = max(abs(x) for x in b)
        rel = max(abs(x - y) for x, y in zip(a, b)) / scale
        equal = sum(x == y for x, y in zip(a, b))
        print(f"BLAS {f[5:-4]:<24} max |simtlab - cuBLAS| / max|cuBLAS| = {rel:.3g}; {equal} of {len(a)} bit-equal")
    return bad


def main():
    sim, gpu = sys.argv[1], sys.argv[2]
    bad = compare_cub(sim, gpu) + compare_curand(sim, gpu) + compare_gemm(sim, gpu)
    print("verdict:", "every compared output as stated" if bad == 0 else f"{bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
