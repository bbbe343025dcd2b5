#!/usr/bin/env python3
"""Summarise the SASS of named kernels: memory and FP instructions by opcode.

usage: sass_summary.py DRIVER.sass KERNEL...   (markdown on stdout)

Evidence for counter differences that nvcc causes: a shared-memory load merged
into LDS.64/LDS.128, a loop unrolled, an FMUL+FADD kept apart by --fmad=false.
The counts are static (instructions in the binary), not executed counts.
"""
import re
import subprocess
import sys
from collections import Counter

INTERESTING = re.compile(r"^(LDG|STG|LDS|STS|LD|ST|ATOM|ATOMS|ATOMG|RED|FADD|FMUL|FFMA|DADD|DMUL|DFMA|MUFU)\b")


def demangle(names):
    try:
        out = subprocess.run(["cu++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
        return out.stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        try:
            out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True)
            return out.stdout.split("\n")
        except (OSError, subprocess.CalledProcessError):
            return names


def functions(sass_text):
    """{mangled name: [instruction text]} from cuobjdump --dump-sass output."""
    funcs, current = {}, None
    for line in sass_text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            current = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m and current is not None:
            current.append(m.group(1))
    return funcs


def base_name(demangled):
    """`void matmul_tiled<32>(float const*, ...)` -> `matmul_tiled`."""
    head, depth = "", 0
    for ch in demangled.split("(")[0]:
        depth += ch == "<"
        if depth == 0:
            head += ch
        depth -= ch == ">"
    return head.split()[-1].split("::")[-1] if head.split() else demangled


def main():
    sass_path, kernels = sys.argv[1], sys.argv[2:]
    funcs = functions(open(sass_path).read())
    mangled = list(funcs)
    plain = dict(zip(mangled, demangle(mangled)))
    for k in kernels:
        matches = [m for m in mangled if base_name(plain[m]) == k]
        if not matches:
            print(f"- `{k}`: not found in the SASS\n")
            continue
        for m in matches:
            ops = Counter(op for op in funcs[m] if INTERESTING.match(op))
            listing = ", ".join(f"{op} x{n}" for op, n in sorted(ops.items()))
            print(f"- `{plain[m]}`: {listing or 'no memory or FP instructions'}\n")


if __name__ == "__main__":
    main()
