#!/usr/bin/python3
"""Exits 0 when two or more launch JSON files (SIMT_OPTIONS=report_json=...) hold the same
launches: the same kernels on the same GPUs with the same counters, per-line metrics,
simulated times and diagnostics. Host threads launch in an order that differs from run
to run, so the launches are compared as a multiset; the simulator's own wall time,
record numbers (repeat_of), addresses (the arena's base differs run to run) and
allocation numbers (host threads allocate in either order) are left out. A launch that
a race between blocks failed is compared by its kernel, geometry, GPU, error and the race's
kind and line: which two accesses of the racing blocks meet first, and so the pair the
message names and how far each block ran before the launch stopped (its counters and
time), depends on how the blocks' workers interleave, in any run (docs/exec.md, "What
race detection can miss").
Usage: same_launches.py A.json B.json [...]"""
import json
import re
import sys


def without_addresses(x):
    if isinstance(x, dict):
        return {k: without_addresses(v) for k, v in x.items() if k != "address"}
    if isinstance(x, list):
        return [without_addresses(v) for v in x]
    if isinstance(x, str):
        return re.sub(r"#\d+", "#N", re.sub(r"0x[0-9a-f]+", "0x?", x))
    return x


def race_failed(record):
    return any(d.get("kind") == "global-memory race" for d in record.get("diagnostics", []))


def race_outline(record):
    kept = {k: record[k] for k in ("kernel", "grid", "block", "device", "stream", "error") if k in record}
    kept["diagnostics"] = [{"kind": d["kind"], "location": d["location"]} for d in record["diagnostics"]]
    return kept


def launches(path):
    with open(path) as f:
        records = json.load(f)
    out = []
    for r in records:
        r = race_outline(r) if race_failed(r) else dict(r)
        r.pop("wall_seconds", None)
        r.pop("repeat_of", None)
        out.append(json.dumps(without_addresses(r), sort_keys=True))
    return sorted(out)


def main():
    first = launches(sys.argv[1])
    if not first:
        print(f"{sys.argv[1]}: no launches")
        return 1
    for other in sys.argv[2:]:
        got = launches(other)
        if got != first:
            only_a = [x for x in first if x not in got]
            only_b = [x for x in got if x not in first]
            print(f"{other} differs from {sys.argv[1]}: {len(got)} vs {len(first)} launches")
            for x in only_a[:2]:
                print("  only in the first:", x[:400])
            for x in only_b[:2]:
                print("  only in the other:", x[:400])
            return 1
    print(f"{len(first)} launches, the same in {len(sys.argv) - 1} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
