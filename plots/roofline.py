#!/usr/bin/env python3
"""Plot simulated kernels on a hierarchical roofline (the Nsight Compute picture).

    simt run matmul_naive --json > naive.json
    simt run matmul_tiled --json > tiled.json
    python3 plots/roofline.py naive.json tiled.json -o matmuls.png

Three roofs, one per memory level (L1/shared, L2, DRAM: bytes/s x FLOP per byte) under
the FP32 peak; each launch is drawn once per level, at its FLOPs per byte of that
level's traffic and at the FLOP/s the kernel time model predicts (FLOPs / predicted
time). A level whose point sits on its roof is the one that binds; points far below
every roof are bound by something else (latency, bank conflicts, issue), which the
legend names. Everything comes from the "time" object `simt run --json` writes
(cost/kernel/kernel_time.hpp): levels, bandwidths, peak, predicted time, binding term.
Launches without FLOPs (copies, transposes) have no place on a FLOP/s axis and are
listed instead.
"""
import argparse
import json
import sys

from pyplot_to_file import pyplot

plt = pyplot()

LEVELS = {"l1_shared": ("L1/shared", "o"), "l2": ("L2", "^"), "dram": ("DRAM", "s")}


def fail(message):
    print(f"roofline.py: {message}", file=sys.stderr)
    sys.exit(2)


def launches(path):
    """(kernel, time) of each priced launch of a `simt run/exec --json` file; bad input
    is one line and exit 2, never a traceback."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path} is not JSON ({e.msg} at line {e.lineno}): write it with simt run ... --json")
    if not isinstance(data, list) or not all(isinstance(l, dict) for l in data):
        fail(f"{path} is not a list of launches: write it with simt run ... --json or simt exec ... --json=PATH")
    for launch in data:
        t = launch.get("time")
        if launch.get("error") or not isinstance(t, dict):
            continue
        if not all(k in t for k in ("flops", "predicted_s", "levels", "peak_fp32_flops", "bound")):
            fail(f"{path}: launch {launch.get('kernel', '?')} has a time without the model's fields")
        yield launch.get("kernel", "?"), t


def draw_roofs(ax, peak, bandwidths, lo, hi):
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    ax.loglog(xs, [peak] * len(xs), color="black", lw=1.5, label=f"FP32 peak {peak / 1e12:.3g} TFLOP/s")
    for name, bw in bandwidths.items():
        label, _ = LEVELS[name]
        ax.loglog(xs, [min(peak, bw * x) for x in xs], lw=1, ls="--",
                  label=f"{label} roof {bw / 1e12:.3g} TB/s")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="JSON files written by `simt run ... --json`")
    ap.add_argument("--simt", help="unused; kept so older invocations still work")
    ap.add_argument("--device", help="unused: the device is the one `simt run --device` priced")
    ap.add_argument("-o", "--output", default="roofline.png")
    args = ap.parse_args()

    points, skipped = [], []
    for path in args.runs:
        for kernel, t in launches(path):
            (points if t["flops"] > 0 else skipped).append((kernel, t))
    if not points:
        fail("no launch with FLOPs and a predicted time to plot")

    peak = max(t["peak_fp32_flops"] for _, t in points)
    bandwidths = {l["name"]: l["bandwidth"] for _, t in points for l in t["levels"] if l["bandwidth"] > 0}
    xs = [l["intensity"] for _, t in points for l in t["levels"] if l["intensity"] > 0]
    ridges = [peak / bw for bw in bandwidths.values()]
    lo, hi = min(xs + ridges) / 10, max(xs + ridges) * 10

    fig, ax = plt.subplots(figsize=(11, 5))
    draw_roofs(ax, peak, bandwidths, lo, hi)
    for i, (kernel, t) in enumerate(points):
        achieved = t["flops"] / t["predicted_s"]
        color = f"C{(i + 3) % 10}"
        for level in t["levels"]:
            if level["intensity"] <= 0:
                continue
            _, marker = LEVELS[level["name"]]
            ax.scatter([level["intensity"]], [achieved], color=color, marker=marker, zorder=3)
        ax.plot([], [], color=color, marker="o", ls="",
                label=f"{kernel}: {t['predicted_s'] * 1e6:.3g} us, bound by {t['bound']}")
    for name, (label, marker) in LEVELS.items():
        ax.scatter([], [], color="gray", marker=marker, label=f"point at {label} intensity")
    ax.set_xlabel("FLOP per byte of each level's traffic (simulated counters)")
    ax.set_ylabel("FLOP/s (FLOPs / predicted time)")
    ax.set_title("Hierarchical roofline: simulated kernels, kernel time model")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    try:
        fig.savefig(args.output, dpi=120)
    except OSError as e:
        fail(f"cannot write {args.output}: {e.strerror}")
    note = f"; not plotted (no FLOPs): {', '.join(k for k, _ in skipped)}" if skipped else ""
    print(f"wrote {args.output} ({len(points)} launches){note}")


if __name__ == "__main__":
    main()
