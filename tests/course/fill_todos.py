#!/usr/bin/env python3
"""Write simtlab's own solution of a course homework into a checkout of it.

The course marks each part a student writes with a pair of comments,
`BEGIN <part>` ... `END <part>` (`//`, `///` or `#` comments), e.g. `/// BEGIN HW1_1` in
HW1's src/combine.cu or `// BEGIN ASSIGN4_1_1` in HW4's src/softmax_kernel.cu. A part
may be marked more than once in one file (HW4 has three `ASSIGN4_1_1` regions in one
kernel). Everything between a pair is replaced by a solution file, indented like the
BEGIN line; nothing else in the course's files changes.

Solution files are named `<part>.<ext>` for a part marked once in its file and
`<part>.<k>.<ext>` for the k-th region (from 1) of a part marked several times.
`--target GLOB=PATH` maps solution files to the course file they fill (e.g.
`'HW1_*.cu=src/combine.cu'`). Fails loudly when a region of a mapped file whose part
starts with --prefix has no solution, when a solution has no region, or when the
number of regions differs from the solutions: a changed course file is noticed
rather than half filled.

usage: fill_todos.py CHECKOUT SOLUTION_DIR --prefix PREFIX --target GLOB=PATH [...]
"""
import argparse
import collections
import fnmatch
import pathlib
import re
import sys


def regions(text: str, prefix: str):
    """Every BEGIN/END pair of a part starting with `prefix`, in file order."""
    begin = re.compile(rf"^(?P<indent>[ \t]*)(?://+|#) BEGIN (?P<part>{re.escape(prefix)}\w*)[^\n]*\n", re.M)
    found = []
    pos = 0
    while (m := begin.search(text, pos)):
        part = m["part"]
        end = re.compile(rf"^[ \t]*(?://+|#) END {re.escape(part)}\b", re.M).search(text, m.end())
        if not end:
            sys.exit(f"fill_todos: 'BEGIN {part}' has no 'END {part}'")
        found.append((part, m["indent"], m.end(), end.start()))
        pos = end.end()
    return found


def indented(body: str, indent: str) -> str:
    if indent and body.startswith(indent):  # the solution is already indented
        return body
    return "".join(indent + line if line.strip() else line for line in body.splitlines(keepends=True))


def solution_name(part: str, k: int, count: int, ext: str) -> str:
    return f"{part}.{ext}" if count == 1 else f"{part}.{k}.{ext}"


def filled(text: str, solutions: dict, prefix: str, ext: str, name_of_file: str):
    """The text with every marked region filled (used solutions are removed from
    `solutions`), and how many regions there were."""
    found = regions(text, prefix)
    counts = collections.Counter(part for part, *_ in found)
    seen = collections.Counter()
    pieces, last = [], 0
    for part, indent, start, end in found:
        seen[part] += 1
        name = solution_name(part, seen[part], counts[part], ext)
        if name not in solutions:
            sys.exit(f"fill_todos: {name_of_file}: region {seen[part]} of {counts[part]} of {part} "
                     f"needs the solution file {name}")
        pieces += [text[last:start], indented(solutions.pop(name).read_text(), indent)]
        last = end
    return "".join(pieces) + text[last:], len(found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout", type=pathlib.Path)
    ap.add_argument("solution_dir", type=pathlib.Path)
    ap.add_argument("--prefix", required=True, help="marker part prefix, e.g. HW1_ or ASSIGN4_")
    ap.add_argument("--target", action="append", required=True, metavar="GLOB=PATH")
    args = ap.parse_args()
    files = sorted(p for p in args.solution_dir.iterdir() if p.is_file())
    for spec in args.target:
        glob, _, target = spec.partition("=")
        if not target:
            sys.exit(f"fill_todos: --target {spec!r} is not GLOB=PATH")
        ext = glob.rsplit(".", 1)[-1]
        solutions = {p.name: p for p in files if fnmatch.fnmatch(p.name, glob)}
        if not solutions:
            sys.exit(f"fill_todos: no solution file in {args.solution_dir} matches {glob}")
        path = args.checkout / target
        text, n = filled(path.read_text(), solutions, args.prefix, ext, target)
        if solutions:
            sys.exit(f"fill_todos: {target} has no region for {', '.join(sorted(solutions))}")
        path.write_text(text)
        print(f"filled {target} ({n} regions)")


if __name__ == "__main__":
    main()
