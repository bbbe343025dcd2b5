#!/usr/bin/env python3
"""Draw which 32-byte sectors each lane of a warp touches in one memory access.

    SIMT_OPTIONS=trace_warps=2 simt exec tests/cuda/plots_access.cu --json=launches.json
    python3 plots/access_pattern.py launches.json --line 15 -o strided.png

x is the lane (0..31), y the sector (32 bytes) the lane's bytes fall in, counted from
the lowest sector the access touches; one marker per lane and sector, coloured by lane.
The title counts the distinct sectors: 4 for 32 lanes reading consecutive 4-byte
floats (coalesced), 32 when each lane's float lies in a sector of its own (a stride of
8 floats or more). Those are the l1tex__t_sectors the simulator counts for that warp.
With several traced accesses at the line (a load and a store, several warps, several
launches) the first four are drawn, one panel each; --warp, --launch and --file narrow
the choice. Global-memory accesses only: plots/bank_map.py draws shared memory.

The input is the launch JSON of `simt exec FILE.cu --json=PATH` (or SIMT_OPTIONS=
report_json=PATH) run with SIMT_OPTIONS=trace_warps=N: its "access_trace" (docs/exec.md).
A missing or unreadable file, a file without a trace, a line without a traced global
access, or an output that cannot be written ends with one line on stderr and status 2.
"""
import argparse
import math

from pyplot_to_file import pyplot

plt = pyplot()

import warp_trace as wt  # noqa: E402

SCRIPT = "access_pattern.py"


def lane_sectors(e):
    """{lane: [sectors it touches]} for the active lanes, and the lowest sector."""
    size = max(1, int(e.get("size", 4)))
    touched = {}
    for lane, a in enumerate(e["addresses"]):
        if a is None:
            continue
        touched[lane] = list(range(a // wt.SECTOR, (a + size - 1) // wt.SECTOR + 1))
    lowest = min(s for ss in touched.values() for s in ss) if touched else 0
    return touched, lowest


def draw(ax, k, kernel, e):
    touched, lowest = lane_sectors(e)
    xs, ys = [], []
    for lane, ss in touched.items():
        for s in ss:
            xs.append(lane)
            ys.append(s - lowest)
    distinct = sorted({y for y in ys})
    for y in distinct:  # a faint band per sector the warp touches
        ax.axhline(y, color="0.9", lw=3, zorder=0)
    sc = ax.scatter(xs, ys, c=xs, cmap="viridis", vmin=0, vmax=31, s=36, edgecolors="black", linewidths=0.3, zorder=2)
    size = int(e.get("size", 4))
    lanes = len(touched)
    ideal = math.ceil(lanes * size / wt.SECTOR)
    what = "4-byte floats" if size == 4 else f"{size}-byte values"
    ideal_text = f"4 is coalesced for {what}" if size == 4 and lanes == 32 else f"{ideal} is coalesced for {what}"
    ax.set_title(f"{wt.panel_title(k, kernel, e)}\n{len(distinct)} sectors for {lanes} lanes ({ideal_text})",
                 fontsize=9)
    ax.set_xlim(-1, 32)
    ax.set_xticks(range(0, 32, 4))
    ax.set_xlabel("lane")
    ax.set_ylabel(f"sector (32 B) above the lowest,\n0x{lowest * wt.SECTOR:x}")
    top = max(distinct) if distinct else 0
    ax.set_ylim(-1, top + 1)
    if top <= 40:
        ax.set_yticks(range(0, top + 1, 1 if top < 12 else 4))
    ax.grid(axis="x", color="0.92")
    return sc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    wt.add_common_arguments(ap, "access_pattern.png")
    args = ap.parse_args()
    launches = wt.load(SCRIPT, args.launches)
    picked = wt.select(SCRIPT, launches, args, space="global")[: wt.MAX_PANELS]
    n = len(picked)
    cols = 1 if n == 1 else 2
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, 4.6 * rows), squeeze=False, layout="constrained")
    sc = None
    for ax, (k, kernel, e) in zip(axes.flat, picked):
        try:
            sc = draw(ax, k, kernel, e)
        except (KeyError, TypeError, ValueError) as err:
            wt.fail(SCRIPT, f"{args.launches}: a malformed access_trace entry at line {args.line} ({err!r})")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.colorbar(sc, ax=axes.ravel().tolist(), label="lane", shrink=0.8 if rows > 1 else 1.0)
    wt.save(SCRIPT, fig, args.output)


if __name__ == "__main__":
    main()
