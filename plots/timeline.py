#!/usr/bin/env python3
"""Draw a simulated timeline as a Gantt chart: one row per GPU and stream, kernels,
copies and NCCL calls as bars on the simulated clock.

    simt exec --gpus 4 kernels/parallel/ddp.cu --timeline ddp.json
    python3 plots/timeline.py ddp.json -o ddp.png

The trace is the Chrome/Perfetto JSON `simt exec --timeline` writes (one process per
GPU, one thread per stream). Colours: kernels blue, NCCL calls orange, host<->device
copies green, peer copies purple, memsets grey. --from/--to (microseconds) zoom in.
"""
import argparse
import json
import sys

from pyplot_to_file import pyplot

plt = pyplot()
from matplotlib.patches import Patch  # noqa: E402  (after pyplot(): it says when matplotlib is missing)

COLOURS = {"kernel": "#3b6fb6", "nccl": "#e8842c", "memcpy HtoD": "#4c9a4c", "memcpy DtoH": "#4c9a4c",
           "memcpy DtoD": "#4c9a4c", "memcpy PtoP": "#8a5bb5", "memset": "#999999"}
LEGEND = [("kernel", "kernel"), ("NCCL", "nccl"), ("copy", "memcpy HtoD"), ("peer copy", "memcpy PtoP"),
          ("memset", "memset")]


def fail(message):
    print(f"timeline.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            trace = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(f"{path} is not JSON ({e.msg} at line {e.lineno}); write it with simt exec ... --timeline FILE")
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        fail(f"{path} has no traceEvents: expected the file simt exec --timeline writes")
    return trace


def rows_of(trace, start, end):
    """(label, [(ts, dur, cat, name)]) per (gpu, stream), in order."""
    names, bars = {}, {}
    for e in trace["traceEvents"]:
        key = (e.get("pid", 0), e.get("tid", 0))
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[key] = e["args"]["name"]
        elif e.get("ph") == "X":
            ts, dur = float(e.get("ts", 0)), float(e.get("dur", 0))
            if ts + dur < start or (end is not None and ts > end):
                continue
            bars.setdefault(key, []).append((ts, dur, e.get("cat", ""), e.get("name", "")))
    gpus = {pid for pid, _ in bars}
    rows = []
    for key in sorted(bars):
        stream = names.get(key, f"stream {key[1]}").replace(" (legacy default)", "")
        rows.append((f"GPU {key[0]} {stream}" if len(gpus) > 1 or key[0] else stream, bars[key]))
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("trace", help="the JSON of simt exec --timeline")
    p.add_argument("-o", "--output", default="timeline.png", help="image to write (.png, .svg, .pdf)")
    p.add_argument("--from", dest="start", type=float, default=0.0, help="first microsecond shown")
    p.add_argument("--to", dest="end", type=float, default=None, help="last microsecond shown")
    p.add_argument("--title", default=None)
    a = p.parse_args()
    trace = load(a.trace)
    rows = rows_of(trace, a.start, a.end)
    if not rows:
        fail(f"{a.trace} has no work in the range shown")
    fig, ax = plt.subplots(figsize=(11, 0.45 * len(rows) + 1.4))
    for y, (_, bars) in enumerate(rows):
        for ts, dur, cat, _ in bars:
            ax.broken_barh([(ts, max(dur, 1e-3))], (y - 0.35, 0.7), color=COLOURS.get(cat, "#555555"), linewidth=0)
    ax.set_yticks(range(len(rows)), [r[0] for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("simulated time (µs)")
    if a.end is not None:
        ax.set_xlim(a.start, a.end)
    device = trace.get("otherData", {}).get("device", "")
    ax.set_title(a.title or f"simulated timeline ({device})")
    ax.legend(handles=[Patch(color=COLOURS[k], label=l) for l, k in LEGEND], loc="upper right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(a.output, dpi=130)
    except OSError as e:
        fail(f"cannot write {a.output}: {e.strerror}")
    print(f"timeline.py: wrote {a.output} ({len(rows)} rows)")


if __name__ == "__main__":
    main()
