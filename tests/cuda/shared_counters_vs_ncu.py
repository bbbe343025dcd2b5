#!/usr/bin/env python3
"""The shared-memory counters of the kept validation set against Nsight Compute's.

usage: shared_counters_vs_ncu.py SIM.json [OTHER_SIM.json] [-v]

SIM.json is what `time_model_set.py collect` writes (every H200 timing run's launches,
with their counters). Each launch is paired with ncu's launch of the same run, as
`time_model_set.py report` pairs them, and its shared-memory counters (load
and store instructions, wavefronts and bank conflicts, shared atomics) are compared
with ncu's. With OTHER_SIM.json (the same set collected by another build) it prints each
counter whose equality with ncu changed between the two; with -v, every counter that
differs from ncu's in the last one. Last line: how many equal ncu's in each.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time_model_set as T  # noqa: E402
from compare_ncu import EXACT  # noqa: E402

SHARED = [m for m in EXACT if "shared" in m]


def paired(sim_path):
    """{(set, case, launch): (simulated metrics, ncu metrics)} where a run made as many
    launches on the GPU as in the simulator (time_model_set.runs_beside_ncu)."""
    sim = json.load(open(sim_path))
    out = {}
    for name, cases_path, ncu_path in T.SETS:
        for line, launches, gpu in T.runs_beside_ncu(cases_path, ncu_path, sim[name]):
            if launches and len(launches) == len(gpu):
                for j, (s, g) in enumerate(zip(launches, gpu)):
                    out[(name, line, j)] = (s["metrics"], g["metrics"])
    return out


def main():
    args = [a for a in sys.argv[1:] if a != "-v"]
    verbose = "-v" in sys.argv
    first = paired(args[0])
    last = paired(args[1]) if len(args) > 1 else first
    equal_first = equal_last = total = 0
    for key, (before, gpu) in first.items():
        if key not in last:
            continue
        after = last[key][0]
        for m in SHARED:
            if m not in gpu:
                continue
            total += 1
            a, b = before.get(m) == gpu[m], after.get(m) == gpu[m]
            equal_first += a
            equal_last += b
            if a != b or (verbose and not b):
                print(f"{key[1][:40]:40} {key[2]} {m[:58]:58} ncu {gpu[m]:>10.0f} "
                      f"first {before.get(m, 0):>10.0f} last {after.get(m, 0):>10.0f}")
    print(f"shared counters equal to ncu's: {equal_first} of {total}" +
          (f" in the first, {equal_last} of {total} in the last" if len(args) > 1 else ""))


if __name__ == "__main__":
    main()
