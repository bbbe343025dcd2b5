#!/usr/bin/env python3
"""Draw which shared-memory bank each lane of a warp hits in one access.

    SIMT_OPTIONS=trace_warps=2 simt exec tests/cuda/plots_access.cu --json=launches.json
    python3 plots/bank_map.py launches.json --line 22 -o columns.png

x is the lane (0..31), y the bank (0..31): 32 banks of 4-byte words, a word's bank is
(byte offset / 4) % 32. Lanes whose bank another lane hits at a different word are in
conflict (red, ringed); lanes that share a word with others are broadcast, not a
conflict. The title says how many ways: the most distinct words one bank must deliver
(1: conflict-free; 32: a column of a 32x32 float tile, every lane in one bank). That
is the number of wavefronts the access needs for 4-byte values; 8- and 16-byte values
are served per half or quarter warp, so their count is an upper bound (docs/counters.md).
A lane of an 8- or 16-byte access has a marker for each bank its bytes cover. With
several traced shared accesses at the line the first four are drawn, one panel each;
--warp, --launch and --file narrow the choice.

The input is the launch JSON of `simt exec FILE.cu --json=PATH` run with
SIMT_OPTIONS=trace_warps=N: the shared rows of its "access_trace", by their
"shared_offset" (docs/exec.md). A missing or unreadable file, a file without a trace,
a line without a traced shared access, or an output that cannot be written ends with
one line on stderr and status 2.
"""
import argparse
from collections import defaultdict

from pyplot_to_file import pyplot

plt = pyplot()

import warp_trace as wt  # noqa: E402

SCRIPT = "bank_map.py"


def lane_words(e):
    """{lane: [4-byte word indices its bytes cover]} for the active lanes."""
    offsets = e.get("shared_offset") or e["addresses"]
    size = max(1, int(e.get("size", 4)))
    return {lane: list(range(o // 4, (o + size - 1) // 4 + 1)) for lane, o in enumerate(offsets) if o is not None}


def conflicts(words):
    """The words each bank serves, the ways (most distinct words in a bank) and the
    lanes in conflict."""
    by_bank = defaultdict(set)
    for ws in words.values():
        for w in ws:
            by_bank[w % 32].add(w)
    ways = max((len(s) for s in by_bank.values()), default=0)
    clash = {lane for lane, ws in words.items() if any(len(by_bank[w % 32]) > 1 for w in ws)}
    return by_bank, ways, clash


def draw(ax, k, kernel, e):
    words = lane_words(e)
    by_bank, ways, clash = conflicts(words)
    for bank in range(32):  # banks with a conflict shaded
        if len(by_bank.get(bank, ())) > 1:
            ax.axhspan(bank - 0.5, bank + 0.5, color="#fde0dd", zorder=0)
    ok = [(lane, w % 32) for lane, ws in words.items() if lane not in clash for w in ws]
    bad = [(lane, w % 32) for lane, ws in words.items() if lane in clash for w in ws]
    if ok:
        ax.scatter(*zip(*ok), color="#3182bd", s=36, label="no conflict", zorder=2)
    if bad:
        ax.scatter(*zip(*bad), color="#de2d26", s=60, edgecolors="black", linewidths=0.8,
                   label="bank shared with another word", zorder=3)
    if ways <= 1:
        verdict = "1-way bank conflict (conflict-free)"
    else:
        verdict = f"{ways}-way bank conflict"
    ax.set_title(f"{wt.panel_title(k, kernel, e)}\n{verdict}: {len(words)} lanes, "
                 f"{sum(len(s) for s in by_bank.values())} distinct words in {len(by_bank)} bank{'s' if len(by_bank) != 1 else ''}", fontsize=9)
    ax.set_xlim(-1, 32)
    ax.set_ylim(-1, 32.5)
    ax.set_xticks(range(0, 32, 4))
    ax.set_yticks(range(0, 32, 4))
    ax.set_xlabel("lane")
    ax.set_ylabel("bank")
    ax.grid(color="0.92")
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, frameon=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    wt.add_common_arguments(ap, "bank_map.png")
    args = ap.parse_args()
    launches = wt.load(SCRIPT, args.launches)
    picked = wt.select(SCRIPT, launches, args, space="shared")[: wt.MAX_PANELS]
    n = len(picked)
    cols = 1 if n == 1 else 2
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, 5.6 * rows), squeeze=False, layout="constrained")
    for ax, (k, kernel, e) in zip(axes.flat, picked):
        try:
            draw(ax, k, kernel, e)
        except (KeyError, TypeError, ValueError) as err:
            wt.fail(SCRIPT, f"{args.launches}: a malformed access_trace entry at line {args.line} ({err!r})")
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    wt.save(SCRIPT, fig, args.output)


if __name__ == "__main__":
    main()
