#!/usr/bin/env python3
"""Reads ncu's raw page (--page raw --csv) for l1_row_walk_probe's launches, or any
launches, and prints per launch what L1 did: busiest SM's active cycles, global-load
requests, sectors and hit rate, the data pipe's wavefronts, and the clocks per line a
request touched on the busiest SM. A thread-per-row walk touches 32 lines a request.

    python3 tests/cuda/l1_row_walk_report.py ncu_raw.csv [--all-l1]

--all-l1 also prints every non-zero l1tex metric of each launch.
"""
import csv
import sys

COLUMNS = {
    "cycles": "sm__cycles_active.max",
    "us": "gpu__time_duration.sum",
    "requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "hits": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def dims(text):
    """ncu's "(132, 1, 1)" as 132x1x1."""
    return "x".join(p.strip() for p in text.strip("()").split(","))


def launches(path):
    rows = [r for r in csv.reader(line for line in open(path) if line.startswith('"'))]
    header = rows[0]
    for r in rows[1:]:
        d = dict(zip(header, r))
        if not d.get("ID", "").isdigit():
            continue  # the units row
        yield d


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    all_l1 = "--all-l1" in sys.argv
    print(f"{'launch':<44}{'grid':>12}{'block':>10}{'us':>9}{'SM clk':>10}{'req/SM':>9}"
          f"{'lines/req':>10}{'hit %':>7}{'clk/line':>9}")
    for d in launches(sys.argv[1]):
        v = {k: number(d.get(c, "")) for k, c in COLUMNS.items()}
        sms = 132
        grid = dims(d.get("Grid Size", ""))
        block = dims(d.get("Block Size", ""))
        req, sec, hits, cyc = v["requests"], v["sectors"], v["hits"], v["cycles"]
        per_sm = req / sms if req else 0
        lines = sec / req if req else 0  # one sector a line in a row walk
        hit = 100 * hits / sec if sec and hits is not None else float("nan")
        clk_line = cyc / (per_sm * lines) if per_sm and lines and cyc else float("nan")
        name = d["Kernel Name"].split("(")[0][:42]
        print(f"{name:<44}{grid:>12} {block:>9}{v['us'] / 1000 if v['us'] else 0:>9.1f}{cyc or 0:>10.0f}"
              f"{per_sm:>9.0f}{lines:>10.1f}{hit:>7.1f}{clk_line:>9.2f}")
        if all_l1:
            for k in sorted(d):
                if k.startswith("l1tex__") and number(d[k]):
                    print(f"    {k} {d[k]}")


if __name__ == "__main__":
    main()
