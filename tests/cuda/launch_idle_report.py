#!/usr/bin/env python3
"""How much of each launch its SMs spend idle: ncu's elapsed cycles against the busiest
SM's active cycles, per launch, from the CSVs of tests/cuda/run_launch_idle_gpu.sh.

usage: launch_idle_report.py CSV [CSV ...]     (the archive unpacked)

idle = gpc__cycles_elapsed.max - sm__cycles_active.max: the part of the launch before
its first warp starts and after its last one ends, which the kernel time model's
launch_overhead_us stands for (docs/validation/h200-short-kernels.md).
"""
import collections
import csv
import sys

METRICS = ["gpu__time_duration.sum", "gpc__cycles_elapsed.max", "sm__cycles_active.avg", "sm__cycles_active.max"]


def launches(path):
    """(id, kernel, grid, block) -> {metric: value}, in the order ncu profiled them."""
    rows = list(csv.reader(line for line in open(path) if line.startswith('"')))
    if not rows:
        return {}
    header = rows[0]
    out = collections.OrderedDict()
    for r in rows[1:]:
        d = dict(zip(header, r))
        key = (d["ID"], d["Kernel Name"].split("(")[0][:28], d.get("Grid Size", ""), d.get("Block Size", ""))
        out.setdefault(key, {})[d["Metric Name"]] = float(d["Metric Value"].replace(",", ""))
    return out


def report(path):
    print(f"# {path}")
    print(f"{'id':>3} {'kernel':28s} {'grid':>14s} {'block':>12s} {'us':>7s} {'elapsed':>8s} {'act.avg':>8s} "
          f"{'act.max':>8s} {'idle(max)':>9s}")
    for (i, k, g, b), m in launches(path).items():
        if any(name not in m for name in METRICS):
            continue
        elapsed, busiest = m["gpc__cycles_elapsed.max"], m["sm__cycles_active.max"]
        print(f"{i:>3} {k:28s} {g:>14s} {b:>12s} {m['gpu__time_duration.sum'] / 1000:7.2f} {elapsed:8.0f} "
              f"{m['sm__cycles_active.avg']:8.0f} {busiest:8.0f} {elapsed - busiest:9.0f}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        report(path)


if __name__ == "__main__":
    main()
