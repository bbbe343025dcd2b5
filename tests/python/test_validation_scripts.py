#!/usr/bin/env python3
"""Checks the GPU-validation scripts (tests/cuda/*.py) on synthetic data, so a
broken script is found here rather than on the GPU machine."""
import os
import struct
import subprocess
import sys
import tempfile

CUDA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda")


def write_f32(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(values)}f", *values))


def write_bits(path, bits):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(bits)}I", *bits))


def compare(sim, gpu, tolerances=None):
    cmd = [sys.executable, os.path.join(CUDA, "compare_outputs.py"), sim, gpu]
    if tolerances:
        cmd += ["--tolerances", tolerances]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout


def main():
    failures = []

    def check(name, ok):
        print(("ok   " if ok else "FAIL ") + name)
        if not ok:
            failures.append(name)

    with tempfile.TemporaryDirectory() as d:
        sim, gpu = os.path.join(d, "sim"), os.path.join(d, "gpu")
        os.makedirs(sim)
        os.makedirs(gpu)
        write_f32(os.path.join(sim, "k.out.f32"), [1.0, 2.0, 3.0])
        write_f32(os.path.join(gpu, "k.out.f32"), [1.0, 2.0, 3.0])
        status, out = compare(sim, gpu)
        check("identical buffers match", status == 0 and "bit-identical" in out)

        write_bits(os.path.join(sim, "k.nan.f32"), [0x7FC00000, 0x3F800000])
        write_bits(os.path.join(gpu, "k.nan.f32"), [0x7FFFFFFF, 0x3F800000])
        status, out = compare(sim, gpu)
        check("NaN equals NaN whatever the payload", status == 0)

        write_bits(os.path.join(gpu, "k.out.f32"), [0x3F800000, 0x40000001, 0x40400000])
        status, out = compare(sim, gpu)
        check("a one-ulp difference is reported with its index", status == 1 and "max 1 ulp" in out and "[1]" in out)

        tol = os.path.join(d, "tolerances.txt")
        with open(tol, "w") as f:
            f.write("# comment\nk.out 1 float atomics\n")
        status, out = compare(sim, gpu, tol)
        check("a listed tolerance accepts it, with the reason", status == 0 and "float atomics" in out)

        os.remove(os.path.join(gpu, "k.nan.f32"))
        status, out = compare(sim, gpu, tol)
        check("a buffer missing on the GPU side fails", status == 1 and "missing" in out)

        sass = os.path.join(d, "x.sass")
        with open(sass, "w") as f:
            f.write("\t\tFunction : _Z12matmul_tiledILi32EEvPKfS1_Pfi\n"
                    "        /*0080*/              @!P0 LDS.128 R4, [R2] ;\n"
                    "        /*0090*/                   FFMA R1, R2, R3, R1 ;\n"
                    "        /*00a0*/                   LDS R5, [R3] ;\n")
        r = subprocess.run([sys.executable, os.path.join(CUDA, "sass_summary.py"), sass, "matmul_tiled"],
                           capture_output=True, text=True)
        check("SASS summary finds a template kernel by its base name",
              "LDS.128 x1" in r.stdout and "FFMA x1" in r.stdout and "LDS x1" in r.stdout)

    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all checks passed")


if __name__ == "__main__":
    main()
