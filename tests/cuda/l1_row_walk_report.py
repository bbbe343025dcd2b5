#!/usr/bin/env python3
"""Reads ncu's raw page (--page raw --csv) for l1_row_walk_probe's launches, or any
launches, and prints per launch what L1 did: busiest SM's active cycles, global-load
requests a busy SM (over min(blocks, 132) SMs), lines (sectors) a request, the tag
stage's output wavefronts a request, the hit rate, and the clocks per line a request
touched on the busiest SM. A thread-per-row walk touches 32 lines a request.

    python3 tests/cuda/l1_row_walk_report.py ncu_raw.csv [--probe] [--all-l1]

--probe names l1_row_walk_probe.cu's launches, in its order, by their row stride
(bytes) and the places in a line the lanes' sectors fall at.
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
    "wavefronts": "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum",
}


# l1_row_walk_probe.cu's launches in order: row stride in floats.
PROBE_STRIDES = [1024] * 7 + [2048] * 2 + [1000, 1056, 1088, 1040, 1032, 8, 16, 48]


def places(stride_floats):
    """How many of a line's four sector places the 32 lanes' row starts fall at."""
    return len({(lane * stride_floats * 4) % 128 // 32 for lane in range(32)})


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def dims(text):
    """ncu's "(132, 1, 1)" as 132x1x1."""
    return "x".join(p.strip() for p in text.strip("()").split(","))


US_PER = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "msecond": 1e3, "ms": 1e3, "second": 1e6, "s": 1e6}


def launches(path):
    """Each launch's metrics, the duration in microseconds whatever unit ncu chose."""
    rows = [r for r in csv.reader(line for line in open(path) if line.startswith('"'))]
    header = rows[0]
    units = {}
    for r in rows[1:]:
        d = dict(zip(header, r))
        if not d.get("ID", "").isdigit():
            units = d  # the units row
            continue
        scale = US_PER.get(units.get(COLUMNS["us"], "nsecond"), 1e-3)
        if number(d.get(COLUMNS["us"], "")) is not None:
            d[COLUMNS["us"]] = str(number(d[COLUMNS["us"]]) * scale)
        yield d


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    all_l1 = "--all-l1" in sys.argv
    probe = "--probe" in sys.argv
    print(f"{'launch':<44}{'stride B':>9}{'places':>7}" if probe else f"{'launch':<44}", end="")
    print(f"{'grid':>12}{'block':>10}{'us':>9}{'SM clk':>10}{'req/SM':>9}"
          f"{'wf/req':>7}{'lines/req':>10}{'hit %':>7}{'clk/line':>9}")
    for index, d in enumerate(launches(sys.argv[1])):
        v = {k: number(d.get(c, "")) for k, c in COLUMNS.items()}
        grid = dims(d.get("Grid Size", ""))
        blocks = 1
        for n in grid.split("x"):
            blocks *= int(n) if n.isdigit() else 1
        sms = min(blocks, 132)
        block = dims(d.get("Block Size", ""))
        req, sec, hits, cyc = v["requests"], v["sectors"], v["hits"], v["cycles"]
        per_sm = req / sms if req else 0
        lines = sec / req if req else 0  # one sector a line in a row walk
        wf = v["wavefronts"] / req if req and v["wavefronts"] else float("nan")
        hit = 100 * hits / sec if sec and hits is not None else float("nan")
        clk_line = cyc / (per_sm * lines) if per_sm and lines and cyc else float("nan")
        name = d["Kernel Name"].split("(")[0][:42]
        label = ""
        if probe and index < len(PROBE_STRIDES):
            label = f"{4 * PROBE_STRIDES[index]:>9}{places(PROBE_STRIDES[index]):>7}"
        elif probe:
            label = f"{'':>16}"
        print(f"{name:<44}{label}{grid:>12} {block:>9}{v['us'] or 0:>9.1f}{cyc or 0:>10.0f}"
              f"{per_sm:>9.0f}{wf:>7.1f}{lines:>10.1f}{hit:>7.1f}{clk_line:>9.2f}")
        if all_l1:
            for k in sorted(d):
                if k.startswith("l1tex__") and number(d[k]):
                    print(f"    {k} {d[k]}")


if __name__ == "__main__":
    main()
