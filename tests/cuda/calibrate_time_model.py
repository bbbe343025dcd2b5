#!/usr/bin/env python3
"""Constants of the kernel time model measured on a GPU's microbenchmarks.

usage: calibrate_time_model.py patterns SIM_PATTERNS.json NCU_PATTERNS.csv [CLOCK_MHZ]
       calibrate_time_model.py micro NCU_TIME_MICRO.csv [CLOCK_MHZ [DRAM_GBS]]
       (clock 1980 MHz and 4800 GB/s for the H200)

patterns: reads the canonical-pattern launches (tests/cuda/patterns.cuh: tiny grids, one to four
blocks) as the simulator counted them and as Nsight Compute timed them, and prints
the values the device's "kernel_model" object in cost/catalog/devices.json takes:

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

  (docs/validation/data/sim_patterns.json, ncu_patterns.csv)

micro: reads the durations of tests/cuda/time_micro_main.cu's launches (run by
tests/cuda/run_time_micro_gpu.sh) and prints, each from the difference between two
sizes of one microbenchmark (so the launch overhead cancels):

  launch_overhead_us       median of three empty launches
  dram_efficiency          (512 - 128) MB more copied / extra time / datasheet bandwidth
  l1_l2_clk_per_line       3 M more scattered stores (one 128-B line each) per SM
  shared_clk_per_wavefront 31 more wavefronts per read (stride 32 vs 1), 64 warps per SM
  shared_latency_clk       3072 more dependent shared loads of one warp
  shuffle_latency_clk      3072 more dependent shuffles of one warp
  barrier_latency_clk      3072 more __syncthreads of one 256-thread block
  atomic_same_address_clk  786432 more same-address float atomics
  two_wave_ratio           time of 2 x SMs + 1 blocks of 1024 threads / 2 x SMs (2 = a full extra wave)
  l1_reuse_round_clk       one iteration of micro_l1_reuse's loop (a warp's coalesced loads summed, 8 warps
                           per block, full occupancy), windows in L1: (time - launch) x clock / 512
  l2_reuse_round_clk       the same with windows that miss L1 and hit L2: the catalog's l2_load_round_clk
                           until micro_load_loop (one warp, no contention) has run
  l1_hit_latency_clk       49152 more dependent global loads of one thread around 64 lines (L1 hits)
  l2_hit_latency_clk       the same around 8192 lines (1 MB: L1 misses, L2 hits)
  l1_load_round_clk        49152 more iterations of one warp's loop of coalesced loads summed (64 lines)
  l2_load_round_clk        the same over 8192 lines (L2 hits): the catalog's l2_load_round_clk, the
                           load chain's round; runs before micro_global_chain was added lack these four
  issue_per_clk            warp instructions per SM per clock, integer loop at full occupancy
                           (ncu smsp__inst_executed.sum of the two sizes)
  int_issue_inst_per_iter  its warp instructions per loop iteration (the instruction estimate's check)
  int_div_inst_per_iter    the same for a quotient and remainder by a run-time divisor
  l1_l2_clk_per_line_l2    scattered stores whose 16 MB of lines stay in L2, per SM
  l2_hit_clk_per_line      L1 misses that hit in L2 (1 MB of windows re-read vs 32 KB), per SM,
                           from ncu's l1tex__m_xbar2l1tex_read_sectors.sum
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
    cost/kernel/kernel_terms.cpp."""
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


# tests/cuda/time_micro_main.cu's launches, in order: (name, size)
MICRO_LAUNCHES = ([("empty", 0)] * 3 + [("copy", 4 << 20), ("copy", 16 << 20)]
                  + [("store_scattered", 1 << 20), ("store_scattered", 4 << 20)]
                  + [("shared_stride", 1), ("shared_stride", 32)]
                  + [("shared_chain", 1024), ("shared_chain", 4096)]
                  + [("shuffle_chain", 1024), ("shuffle_chain", 4096)]
                  + [("barrier_chain", 1024), ("barrier_chain", 4096)]
                  + [("atomic_storm", 1024), ("atomic_storm", 4096)]
                  + [("wave", 264), ("wave", 265)]
                  + [("int_issue", 256), ("int_issue", 1024)] + [("int_div", 64), ("int_div", 256)]
                  + [("l1_reuse", 1024), ("l1_reuse", 32768)] + [("store_scattered_l2", 4), ("store_scattered_l2", 16)]
                  + [("global_chain_l1", 2 * 8192), ("global_chain_l1", 8 * 8192)]
                  + [("global_chain_l2", 2 * 8192), ("global_chain_l2", 8 * 8192)]
                  + [("load_loop_l1", 2 * 8192), ("load_loop_l1", 8 * 8192)]
                  + [("load_loop_l2", 2 * 8192), ("load_loop_l2", 8 * 8192)])
# Runs before micro_global_chain was added end here (their fits leave its keys out).
MICRO_LAUNCHES_BEFORE_CHAIN = 27
MICRO_WARPS = 132 * 8 * 8  # the full-occupancy microbenchmarks: 8 blocks of 256 threads per SM


def read_ncu_metric(path, name):
    rows = [l for l in open(path) if l.startswith('"')]
    values = {}
    for r in csv.DictReader(rows):
        if r["Metric Name"] == name:
            values[int(r["ID"])] = float(r["Metric Value"].replace(",", ""))
    return [values[i] for i in sorted(values)]


def fit_micro_counts(path, times, clock_hz, sms=132):
    """The constants that need ncu's instruction and L1-miss counts as well as times."""
    insts = read_ncu_metric(path, "smsp__inst_executed.sum")
    misses = read_ncu_metric(path, "l1tex__m_xbar2l1tex_read_sectors.sum")
    if len(insts) != len(times) or len(misses) != len(times) or len(times) < MICRO_LAUNCHES_BEFORE_CHAIN:
        return {}  # an older run, timed only
    at = {}
    for k, (name, size) in enumerate(MICRO_LAUNCHES):
        at.setdefault(name, []).append(k)
    d = lambda values, name: values[at[name][1]] - values[at[name][0]]
    return {
        "issue_per_clk": d(insts, "int_issue") / sms / (d(times, "int_issue") * clock_hz),
        "int_issue_inst_per_iter": d(insts, "int_issue") / 768 / MICRO_WARPS,
        "int_div_inst_per_iter": d(insts, "int_div") / 192 / MICRO_WARPS,
        "l1_l2_clk_per_line_l2": d(times, "store_scattered_l2") * clock_hz / (12 * MICRO_WARPS * 32 / sms),
        "l2_hit_clk_per_line": d(times, "l1_reuse") * clock_hz / (d(misses, "l1_reuse") / 4 / sms),
    }


def fit_micro(times, clock_hz, dram_bps, sms=132):
    if len(times) not in (len(MICRO_LAUNCHES), MICRO_LAUNCHES_BEFORE_CHAIN):
        raise SystemExit(f"expected {len(MICRO_LAUNCHES)} launches, got {len(times)}")
    t = {}
    for (name, size), d in zip(MICRO_LAUNCHES, times):
        t.setdefault(name, []).append(d)
    launch = statistics.median(t["empty"])
    copy_bytes = 2 * 16 * ((16 << 20) - (4 << 20))
    wavefronts_per_sm = 64 * 256 * 31
    chain = {}
    if "load_loop_l2" in t:  # 6 x 8192 more dependent hops (iterations) per ring
        hops = 6 * 8192
        slope = lambda name: (t[name][1] - t[name][0]) * clock_hz / hops
        chain = {"l1_hit_latency_clk": slope("global_chain_l1"), "l2_hit_latency_clk": slope("global_chain_l2"),
                 "l1_load_round_clk": slope("load_loop_l1"), "l2_load_round_clk": slope("load_loop_l2")}
    return {
        "launch_overhead_us": launch * 1e6,
        "dram_efficiency": copy_bytes / (t["copy"][1] - t["copy"][0]) / dram_bps,
        "l1_l2_clk_per_line": (t["store_scattered"][1] - t["store_scattered"][0]) * clock_hz / ((3 << 20) / sms),
        "shared_clk_per_wavefront": (t["shared_stride"][1] - t["shared_stride"][0]) * clock_hz / wavefronts_per_sm,
        "shared_latency_clk": (t["shared_chain"][1] - t["shared_chain"][0]) * clock_hz / 3072,
        "shuffle_latency_clk": (t["shuffle_chain"][1] - t["shuffle_chain"][0]) * clock_hz / 3072,
        "barrier_latency_clk": (t["barrier_chain"][1] - t["barrier_chain"][0]) * clock_hz / 3072,
        "atomic_same_address_clk": 3072 * 256 / (t["atomic_storm"][1] - t["atomic_storm"][0]) / clock_hz,
        "two_wave_ratio": (t["wave"][1] - launch) / (t["wave"][0] - launch),
        # micro_l1_reuse: each warp a loop of 512 coalesced loads summed, 8 warps per
        # block, 8 blocks per SM; per iteration, the launch taken off.
        "l1_reuse_round_clk": (t["l1_reuse"][0] - launch) * clock_hz / 512,
        "l2_reuse_round_clk": (t["l1_reuse"][1] - launch) * clock_hz / 512,
        **chain,
    }


def main(argv):
    if len(argv) >= 3 and argv[1] == "micro":
        clock_hz = float(argv[3]) * 1e6 if len(argv) > 3 else 1980e6
        dram_bps = float(argv[4]) * 1e9 if len(argv) > 4 else 4800e9
        times = read_ncu_times(argv[2])
        fitted = fit_micro(times, clock_hz, dram_bps)
        fitted.update(fit_micro_counts(argv[2], times, clock_hz))
        for key, value in fitted.items():
            print(f"{key:24} {value:.3g}")
        return 0
    if len(argv) not in (4, 5) or argv[1] != "patterns":
        print(__doc__, file=sys.stderr)
        return 2
    sim = json.load(open(argv[2]))
    times = read_ncu_times(argv[3])
    if len(sim) != len(times):
        print(f"launch count differs: simulator {len(sim)}, ncu {len(times)}", file=sys.stderr)
        return 1
    clock_hz = float(argv[4]) * 1e6 if len(argv) == 5 else 1980e6
    r = fit(sim, times, clock_hz)
    print(f"{r['launches']} launches, {r['load_launches']} with global loads, clock {clock_hz / 1e6:.0f} MHz")
    for key in ("launch_overhead_us", "global_latency_us", "l1_l2_clk_per_line"):
        print(f"{key:22} {r[key]:.3g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
