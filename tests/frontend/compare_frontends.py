#!/usr/bin/env python3
"""The course kernels under both front ends: the same validation driver
(tests/cuda/validate_driver.cpp) built with the f32 front end (g++) and with the
compiler front end (clang + simtlab's pass). Every output buffer must be
bit-identical and every counter of every launch equal.

usage: compare_frontends.py F32_DRIVER CLANG_DRIVER WORKDIR
"""
import json
import os
import subprocess
import sys


def run(driver, out):
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, SIMT_REPORT_JSON=os.path.join(out, "launches.json"), SIMT_REPORT="none")
    subprocess.run([driver, out], check=True, env=env, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "launches.json")) as f:
        return json.load(f)


# The instruction estimate exists only under the compiler front end (0 under f32).
ESTIMATED_BY_CLANG_ONLY = {"smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"}


def main():
    f32_driver, clang_driver, work = sys.argv[1:4]
    a = run(f32_driver, os.path.join(work, "f32"))
    b = run(clang_driver, os.path.join(work, "clang"))
    problems = []
    if len(a) != len(b):
        problems.append(f"{len(a)} launches under f32, {len(b)} under clang")
    for i, (la, lb) in enumerate(zip(a, b)):
        for name, value in la["metrics"].items():
            if name in ESTIMATED_BY_CLANG_ONLY:
                continue
            other = lb["metrics"].get(name)
            if other != value:
                problems.append(f"launch {i} {la['kernel']}: {name} f32 {value} clang {other}")
        if la["diagnostics"] != lb["diagnostics"]:
            problems.append(f"launch {i} {la['kernel']}: diagnostics differ")
    buffers = sorted(f for f in os.listdir(os.path.join(work, "f32")) if f.endswith(".f32"))
    for name in buffers:
        with open(os.path.join(work, "f32", name), "rb") as fa, open(os.path.join(work, "clang", name), "rb") as fb:
            if fa.read() != fb.read():
                problems.append(f"output {name} differs")
    for p in problems:
        print(p)
    print(f"{len(a)} launches, {len(buffers)} output buffers compared: "
          f"{'identical' if not problems else str(len(problems)) + ' differences'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
