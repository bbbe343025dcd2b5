#!/usr/bin/env python3
"""Write simtlab's own HW1 solution into a checkout of the course's llmsys_hw1.

The course marks each part a student writes with a pair of comments,
`BEGIN HW1_k` ... `END HW1_k`, in src/combine.cu and minitorch/cuda_kernel_ops.py.
Everything between a pair is replaced by solution/HW1_k.cu or .py, indented like the
BEGIN line; nothing else in the course's files changes. Fails loudly if a marker pair
is missing, so a changed course file is noticed rather than half filled.

usage: fill_todos.py HW1_CHECKOUT
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent / "solution"
TARGETS = {".cu": "src/combine.cu", ".py": "minitorch/cuda_kernel_ops.py"}


def fill(text: str, part: str, body: str) -> str:
    pattern = re.compile(
        rf"^(?P<indent>[ \t]*)(?P<begin>(?:///|#) BEGIN {part}\b[^\n]*\n)"
        rf"(?P<old>.*?)"
        rf"^(?P<end>[ \t]*(?:///|#) END {part}\b)", re.S | re.M)
    match = pattern.search(text)
    if not match:
        sys.exit(f"fill_todos: no 'BEGIN {part}' ... 'END {part}' pair found")
    indent = match["indent"]
    lines = "".join(indent + line if line.strip() else line
                    for line in body.splitlines(keepends=True))
    if indent and body.startswith(indent):  # the solution is already indented
        lines = body
    return text[:match.start("old")] + lines + text[match.start("end"):]


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1])
    root = pathlib.Path(sys.argv[1])
    for suffix, target in TARGETS.items():
        path = root / target
        text = path.read_text()
        for solution in sorted(HERE.glob(f"HW1_*{suffix}")):
            text = fill(text, solution.stem, solution.read_text())
        path.write_text(text)
        print(f"filled {target}")


if __name__ == "__main__":
    main()
