#!/usr/bin/env python3
"""What tests/cuda/run_cold_start_probe_gpu.sh measured: each launch with the caches
flushed before it (ncu's default, --cache-control all) and without (none).

usage: cold_start_report.py DIR        (DIR: cold_start.tar.gz unpacked)

Prints the probe's launches side by side, the chase's latency per hop (slope between
1 and 32 hops) for each case, and, for each validation case file, every launch whose
time differs by more than 10% between the two modes, with the totals.
"""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from course_kernels_report import base, read_ncu  # noqa: E402

CLOCK_HZ = 1.98e9
# The probe's launches in order (tests/cuda/cold_start_probe.cu).
PROBE = ([f"write_index <<<{b}, 256>>>" for b in (1, 132, 528)] +
         [f"code<{n}> <<<{b}, 32>>>" for b in (1, 132) for n in (64, 512, 2048)] +
         [f"chase 4KiB-apart {h} hops {w}" for h in (1, 8, 32) for w in ("new", "again")] +
         [f"chase page-apart {h} hops {w}" for h in (1, 8, 32) for w in ("new", "again")] +
         [f"all_chase 528x256 {h} hops {w}" for h in (1, 8, 32) for w in ("new", "again")] +
         [f"param_loads <<<{b}, 256>>>" for b in (1, 132, 256)])


def times(path):
    return [l["metrics"].get("gpu__time_duration.sum", float("nan")) for l in read_ncu(path)]


def probe(d):
    t = {m: times(os.path.join(d, f"cold_start_probe.{m}.csv")) for m in ("all", "none")}
    print(f"{'launch':36} {'flushed us':>10} {'warm us':>9}")
    for k, name in enumerate(PROBE):
        print(f"{name:36} {t['all'][k] * 1e6:10.2f} {t['none'][k] * 1e6:9.2f}")
    print("\nper hop (32 hops - 1 hop) / 31, clocks at 1.98 GHz:")
    for kind, at in (("chase 4KiB-apart", 9), ("chase page-apart", 15), ("all_chase", 21)):
        for w, off in (("new", 0), ("again", 1)):
            for m in ("all", "none"):
                one, many = t[m][at + off], t[m][at + 4 + off]
                print(f"  {kind:18} {w:5} {m:4}: {(many - one) / 31 * 1e9:7.1f} ns = "
                      f"{(many - one) / 31 * CLOCK_HZ:6.0f} clk; 1 hop {one * 1e6:.2f} us")


def sets(d):
    for path in sorted(glob.glob(os.path.join(d, "*.all.csv"))):
        name = os.path.basename(path)[:-len(".all.csv")]
        if name == "cold_start_probe":
            continue
        cold = read_ncu(path)
        warm_path = os.path.join(d, name + ".none.csv")
        warm = read_ncu(warm_path) if os.path.exists(warm_path) else []
        if len(cold) != len(warm):
            print(f"\n{name}: {len(cold)} flushed, {len(warm)} warm launches; not paired")
            continue
        tc = sum(l["metrics"]["gpu__time_duration.sum"] for l in cold)
        tw = sum(l["metrics"]["gpu__time_duration.sum"] for l in warm)
        print(f"\n{name}: {len(cold)} launches, flushed {tc * 1e6:.1f} us, warm {tw * 1e6:.1f} us")
        for k, (c, w) in enumerate(zip(cold, warm)):
            a, b = c["metrics"]["gpu__time_duration.sum"], w["metrics"]["gpu__time_duration.sum"]
            if abs(a / b - 1) > 0.10:
                print(f"  {k + 1:4} {base(c['name']):40} flushed {a * 1e6:9.2f} us  warm {b * 1e6:9.2f} us  "
                      f"{a / b:5.2f}x")


if __name__ == "__main__":
    d = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
    probe(d)
    sets(d)
