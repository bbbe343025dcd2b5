#!/usr/bin/env python3
"""Re-runs every `simt table` command shown in the docs and puts its output in place.

usage: refresh_tables.py SIMT [FILE.md ...] [--check]

A doc shows a table as a console block with the command (`$ simt table ... --format
markdown`, one or more) followed by the tables it printed, in order. After a change to
the counters or the time model, this re-runs each command with SIMT and replaces each
table that follows it, so the docs print what the tool prints (a table whose header
differs from the command's, edited by hand, is left alone). With --check it changes
nothing and exits 1 naming the files whose tables differ. Default files: README.md and
docs/**/*.md (the handouts have their own generator, docs/handouts/make_handouts.sh).
"""
import glob
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = re.compile(r"^\$ simt table (.*--format markdown.*)$")


def run_table(simt, args):
    out = subprocess.run([simt, "table"] + shlex.split(args), capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"simt table {args}: exit {out.returncode}\n{out.stderr[-2000:]}")
    return [l for l in out.stdout.splitlines() if l.startswith("|")]


def tables_after(lines, start):
    """(first, end) line ranges of the markdown tables after `start`, up to the next code block."""
    found, i = [], start
    while i < len(lines) and not lines[i].startswith("```"):
        if lines[i].startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            found.append((i, j))
            i = j
        else:
            i += 1
    return found


def refresh(simt, path):
    lines = open(path).read().split("\n")
    i, changed = 0, False
    while i < len(lines):
        if lines[i].startswith("```console"):
            commands, j = [], i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                m = COMMAND.match(lines[j].strip())
                if m:
                    commands.append(m.group(1))
                j += 1
            if commands:
                slots = tables_after(lines, j + 1)
                if len(slots) == len(commands):
                    for (a, b), args in reversed(list(zip(slots, commands))):
                        new = run_table(simt, args)
                        # A table whose header is not the command's (a column added by
                        # hand: measured times) is the doc's own; left alone.
                        if new and lines[a] == new[0] and lines[a:b] != new:
                            lines[a:b] = new
                            changed = True
            i = j + 1
        else:
            i += 1
    return "\n".join(lines), changed


def main(argv):
    check = "--check" in argv
    args = [a for a in argv[1:] if a != "--check"]
    if not args:
        raise SystemExit(__doc__)
    simt = os.path.abspath(args[0])
    files = args[1:] or [os.path.join(ROOT, "README.md")] + [
        f for f in sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
        if os.sep + "handouts" + os.sep not in f]
    stale = []
    for path in files:
        text, changed = refresh(simt, path)
        if changed:
            stale.append(os.path.relpath(path, ROOT))
            if not check:
                open(path, "w").write(text)
    for s in stale:
        print(("differs: " if check else "refreshed: ") + s)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
