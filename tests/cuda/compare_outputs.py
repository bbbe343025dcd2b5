#!/usr/bin/env python3
"""Compare the output buffers of two validation runs bit for bit.

usage: compare_outputs.py SIM_DIR GPU_DIR [--tolerances FILE]   (markdown on stdout)

Each DIR holds <kernel>.<buffer>.f32 files (raw little-endian float32) written by
tests/cuda/validate_driver.cpp. Buffers must be bit-identical, except:
  - NaN equals NaN whatever its payload (the GPU's canonical NaN is 0x7fffffff,
    x86's is 0xffc00000; simtlab's portable math returns the GPU's);
  - buffers listed in the tolerances file (one "kernel.buffer max_ulp reason" per
    line), for operations documented as non-deterministic on the hardware
    (float atomics). Exit status 1 if any buffer differs beyond that.
Pure Python (no numpy): the GPU machine may not have it.
"""
import glob
import os
import struct
import sys
from array import array


def read_floats(path):
    a = array("f")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    if sys.byteorder != "little":
        a.byteswap()
    return a


def ordered(bits):
    """Maps float bit patterns to integers whose order is the floats' order."""
    return bits if bits < 0x80000000 else 0x80000000 - (bits & 0x7FFFFFFF)


def is_nan(bits):
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x007FFFFF) != 0


def compare(sim, gpu):
    """(number of differing elements, max ulp distance, first differing index)."""
    sb, gb = array("I", sim.tobytes()), array("I", gpu.tobytes())
    diff, worst, first = 0, 0, None
    for i in range(len(sb)):
        s, g = sb[i], gb[i]
        if s == g or (is_nan(s) and is_nan(g)):
            continue
        diff += 1
        worst = max(worst, abs(ordered(s) - ordered(g)))
        if first is None:
            first = i
    return diff, worst, first


def read_tolerances(path):
    tol = {}
    if path and os.path.exists(path):
        for line in open(path):
            parts = line.split(None, 2)
            if parts and not parts[0].startswith("#"):
                tol[parts[0]] = (int(parts[1]), parts[2].strip() if len(parts) > 2 else "")
    return tol


def hexf(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def main():
    args = sys.argv[1:]
    tol_path = None
    if "--tolerances" in args:
        i = args.index("--tolerances")
        tol_path = args[i + 1]
        del args[i:i + 2]
    sim_dir, gpu_dir = args
    tolerances = read_tolerances(tol_path)
    rows, bad = [], 0
    names = sorted(os.path.basename(p)[:-4] for p in glob.glob(os.path.join(sim_dir, "*.f32")))
    for name in names:
        sim = read_floats(os.path.join(sim_dir, name + ".f32"))
        gpu_path = os.path.join(gpu_dir, name + ".f32")
        if not os.path.exists(gpu_path):
            rows.append((name, len(sim), "**missing on the GPU side**"))
            bad += 1
            continue
        gpu = read_floats(gpu_path)
        if len(gpu) != len(sim):
            rows.append((name, len(sim), f"**length differs: GPU {len(gpu)}**"))
            bad += 1
            continue
        diff, worst, first = compare(sim, gpu)
        if diff == 0:
            rows.append((name, len(sim), "bit-identical"))
            continue
        allowed = tolerances.get(name)
        where = (f"first at [{first}]: sim {sim[first]!r} (0x{hexf(sim[first]):08x}), "
                 f"GPU {gpu[first]!r} (0x{hexf(gpu[first]):08x})")
        if allowed and worst <= allowed[0]:
            rows.append((name, len(sim), f"within tolerance ({diff} differ, max {worst} ulp <= {allowed[0]}: "
                                         f"{allowed[1]})"))
        else:
            rows.append((name, len(sim), f"**{diff} differ, max {worst} ulp; {where}**"))
            bad += 1
    print(f"{len(rows) - bad} of {len(rows)} output buffers match (bit-identical unless a tolerance is listed).\n")
    print("| buffer | elements | result |")
    print("|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
