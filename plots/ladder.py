#!/usr/bin/env python3
"""Draw a kernel ladder: one bar group per version, the predicted time on each device
beside the traffic that explains it.

    simt table transpose_naive transpose_shared transpose_padded \\
        --metrics st_sectors,bank_conflicts,time -d H200 -d RTX-A6000 --format json > ladder.json
    python3 plots/ladder.py ladder.json -o transpose_ladder.png

The left panel has the predicted times (the time model's estimates: one bar per
device), the right panel the counted columns (exact counters), each scaled to its
largest value so columns of different sizes share one axis; the bars are labelled
with their values. Everything comes from `simt table --format json`.
"""
import argparse
import json
import sys

from pyplot_to_file import pyplot

plt = pyplot()


def fail(message):
    print(f"ladder.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            table = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path} is not JSON ({e.msg} at line {e.lineno}); write it with simt table ... --format json")
    if not isinstance(table, dict) or not isinstance(table.get("rows"), list) or not table["rows"]:
        fail(f"{path} has no rows: expected the output of simt table ... --format json")
    return table


def short(v):
    for limit, suffix in ((1e9, " G"), (1e6, " M"), (1e3, " k")):
        if abs(v) >= limit:
            return f"{v / limit:.3g}{suffix}"
    return f"{v:.3g}"


def bars(ax, kernels, series):
    """series: (name, heights, labels) per bar of each group; None draws nothing."""
    width = 0.8 / max(len(series), 1)
    for j, (name, heights, labels) in enumerate(series):
        xs = [i + (j - (len(series) - 1) / 2) * width for i in range(len(kernels))]
        drawn = ax.bar(xs, [h or 0 for h in heights], width, label=name)
        for rect, label in zip(drawn, labels):
            if label is not None:
                ax.annotate(label, (rect.get_x() + rect.get_width() / 2, rect.get_height()),
                            ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(kernels)))
    ax.set_xticklabels(kernels, rotation=20, ha="right", fontsize=8)
    ax.legend(fontsize=8)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("table", help="simt table ... --format json output")
    p.add_argument("-o", "--output", default="ladder.png", help="PNG to write (default ladder.png)")
    p.add_argument("--title", default="", help="the figure's title")
    a = p.parse_args()
    table = load(a.table)
    kernels = [r["kernel"] for r in table["rows"]]
    times = [c for c in table["columns"] if c["name"].startswith("time@")]
    counted = [c for c in table["columns"] if not c["name"].startswith("time@")]
    if not times and not counted:
        fail(f"{a.table} has no columns")
    panels = [p for p in (times, counted) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(6.5 * len(panels), 4.5), squeeze=False)
    axes = axes[0]
    k = 0
    if times:
        ax = axes[k]
        k += 1
        series = []
        for c in times:
            us = [None if r["values"].get(c["name"]) is None else r["values"][c["name"]] * 1e6 for r in table["rows"]]
            series.append((c["heading"].replace("time ", ""), us, [None if v is None else f"{v:.3g}" for v in us]))
        bars(ax, kernels, series)
        ax.set_ylabel("predicted time (us, estimate)")
        ax.set_title("time per version (kernel time model)")
    if counted:
        ax = axes[k]
        series = []
        for c in counted:
            values = [r["values"].get(c["name"]) for r in table["rows"]]
            top = max((v for v in values if v), default=0) or 1
            series.append((c["heading"], [None if v is None else v / top for v in values],
                           [None if v is None else short(v) for v in values]))
        bars(ax, kernels, series)
        ax.set_ylabel("fraction of the largest version (labels: the counts)")
        ax.set_title("counted traffic per version")
    if a.title:
        fig.suptitle(a.title)
    fig.tight_layout()
    try:
        fig.savefig(a.output, dpi=120)
    except OSError as e:
        fail(f"cannot write {a.output}: {e.strerror}")
    print(f"wrote {a.output}")


if __name__ == "__main__":
    main()
