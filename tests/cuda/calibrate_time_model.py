#!/usr/bin/env python3
"""Constants of the kernel time model measured on a GPU's microbenchmarks.

Reads the canonical-pattern launches (tests/cuda/patterns.cuh: tiny grids, one to four
blocks) as the simulator counted them and as Nsight Compute timed them, and prints
the values the device's "kernel_model" object in cost/devices.json takes:

  launch_overhead_us       median duration of the launches without global loads
                           (one block of 32 threads: launch, a few shared accesses,
                           a store: the fixed cost of any kernel)
  global_latency_us        median extra duration of the launches with global loads
                           whose loads touch the fewest lines (one round trip to
                           memory that no amount of parallelism hides)
  l1_l2_clk_per_line       least-squares slope of duration against the 128-byte
                           lines the busiest SM sends to L2 (loads and stores of
                           the strided, misaligned, broadcast and float4 patterns),
                           in SM clock cycles

usage: calibrate_time_model.py SIM_PATTERNS.json NCU_PATTERNS.csv [CLOCK_MHZ]
       (docs/validation/data/sim_patterns.json, ncu_patterns.csv; clock 1980 for the H200)
"""
import csv
import json
import math
import statistics
import sys


def read_ncu_times(path):
    rows = [l for l in open(path) if l.startswith('"')]
    times = {}
    for r in csv.DictReader(rows):
        if r["Metric Name"] == "gpu__time_duration.sum":
            times[int(r["ID"])] = float(r["Metric Value"].replace(",", "")) * 1e-9
    return [times[i] for i in sorted(times)]


def metric(launch, name):
    return launch["metrics"].get(name, 0)


def lines_on_busiest_sm(launch):
    """Distinct 128-byte lines per request, summed over the sites, on the busiest SM.

    A site whose every active lane has its own sector is taken as scattered (one
    line per sector); otherwise four sectors share a line. Same rule as
    cost/kernel_terms.cpp."""
    blocks = launch["grid"][0] * launch["grid"][1] * launch["grid"][2]
    total = 0.0
    for line in launch["lines"]:
        m = line["metrics"]
        warp_inst = m.get("simt__warp_inst_counted.sum", 0)
        lanes = m.get("simt__thread_inst_counted.sum", 0) / warp_inst if warp_inst else 32
        for op in ("ld", "st"):
            req = m.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", 0)
            sec = m.get(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum", 0)
            if req:
                per = sec / req
                total += req * (per if per > 4 and per >= lanes - 1e-9 else math.ceil(per / 4 - 1e-9))
    return total * math.ceil(blocks / 132) / blocks


def fit(sim, times, clock_hz):
    loads = [(l, t) for l, t in zip(sim, times) if metric(l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")]
    no_loads = [t for l, t in zip(sim, times) if not metric(l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")]
    launch = statistics.median(no_loads)
    xs = [lines_on_busiest_sm(l) for l, _ in loads]
    ys = [t for _, t in loads]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    fewest = min(xs)
    latency = statistics.median([y for x, y in zip(xs, ys) if x == fewest]) - launch
    return {"launch_overhead_us": launch * 1e6, "global_latency_us": latency * 1e6,
            "l1_l2_clk_per_line": slope * clock_hz, "launches": len(times), "load_launches": len(loads)}


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    sim = json.load(open(argv[1]))
    times = read_ncu_times(argv[2])
    if len(sim) != len(times):
        print(f"launch count differs: simulator {len(sim)}, ncu {len(times)}", file=sys.stderr)
        return 1
    clock_hz = float(argv[3]) * 1e6 if len(argv) == 4 else 1980e6
    r = fit(sim, times, clock_hz)
    print(f"{r['launches']} launches, {r['load_launches']} with global loads, clock {clock_hz / 1e6:.0f} MHz")
    for key in ("launch_overhead_us", "global_latency_us", "l1_l2_clk_per_line"):
        print(f"{key:22} {r[key]:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
