#!/usr/bin/python3
"""Fits simtlab's NCCL collective model (cost/comm/nccl_model.cpp) to the 2xH200
all-reduce sweep: two parameters, the achieved bus bandwidth B of NCCL's Simple
protocol and the host's cost per call (alpha), on 6 of the 11 sizes; prints the
other 5 as the check. Usage: fit_nccl_model.py [calibration file]"""
import math
import sys

PATH = sys.argv[1] if len(sys.argv) > 1 else "../shared/calibration/nccl_h200x2_allreduce.txt"
FIT = {1024, 16384, 262144, 4194304, 67108864, 1073741824}

# NCCL src/graph/tuning.cc (2.23+): ring baseLat and NVLink hwLat per protocol (us),
# Hopper single-node LL cap (llMaxBws, GB/s), LL128 efficiency 0.92, LL 0.5.
BASE = {"LL": 6.6, "LL128": 14.0, "Simple": 8.4}
HW_NVLINK = {"LL": 0.6, "LL128": 1.9, "Simple": 3.4}
LL_MAX = 141e9


def device_time(size, n, busbw, op="all-reduce"):
    nsteps = {"all-reduce": 2 * (n - 1), "all-gather": n - 1, "reduce-scatter": n - 1, "broadcast": n}[op]
    lat_steps = 1 if op == "broadcast" else nsteps  # a pipelined chain pays one step
    ratio = n / nsteps
    best = None
    for p in ("LL", "LL128", "Simple"):
        bw = {"LL": min(LL_MAX, 0.5 * busbw), "LL128": 0.92 * busbw, "Simple": busbw}[p] * ratio
        t = (BASE[p] + lat_steps * HW_NVLINK[p]) * 1e-6 + size / bw
        if best is None or t < best[0]:
            best = (t, p)
    return best


def per_call(size, n, busbw, alpha, op="all-reduce"):
    t, p = device_time(size, n, busbw, op)
    return max(alpha, t), p


def read(path):
    rows = []
    for line in open(path):
        f = line.split()
        if len(f) > 8 and f[0] == "NCCL" and f[1] == "all_reduce":
            rows.append((int(f[3]), float(f[7]) * 1e-6))
    return rows


def main():
    rows = read(PATH)
    fit = [r for r in rows if r[0] in FIT]
    best = None
    for b in range(250, 451):  # GB/s
        for a10 in range(50, 250):  # alpha in 0.1 us
            err = sum(math.log(per_call(s, 2, b * 1e9, a10 * 1e-7)[0] / t) ** 2 for s, t in fit)
            if best is None or err < best[0]:
                best = (err, b, a10 / 10)
    _, b, alpha = best
    print(f"fitted on {len(fit)} sizes: nccl_busbw_gbs = {b}, nccl_call_us = {alpha}")
    print(f"{'bytes':>12} {'set':>6} {'measured us':>12} {'model us':>10} {'proto':>7} {'ratio':>6}")
    within = {"fit": 0, "check": 0}
    for s, t in rows:
        m, p = per_call(s, 2, b * 1e9, alpha * 1e-6)
        which = "fit" if s in FIT else "check"
        within[which] += abs(m / t - 1) <= 0.25
        print(f"{s:>12} {which:>6} {t * 1e6:>12.2f} {m * 1e6:>10.2f} {p:>7} {m / t:>6.2f}")
    print(f"within 25%: fit {within['fit']}/{len(FIT)}, check {within['check']}/{len(rows) - len(FIT)}")
    print("\npredictions on 2x H200, per call back to back (us), before any measurement:")
    ops = ("all-gather", "reduce-scatter", "broadcast")
    print(f"{'bytes':>12} " + " ".join(f"{op:>16}" for op in ops))
    for s, _ in rows:
        cells = []
        for op in ops:
            m, p = per_call(s, 2, b * 1e9, alpha * 1e-6, op)
            cells.append(f"{m * 1e6:>9.2f} {p:>6}")
        print(f"{s:>12} " + " ".join(cells))


main()
