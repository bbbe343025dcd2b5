#!/usr/bin/env python3
"""What each launch of a run_time_model_diagnose_gpu.sh archive waits for on the GPU.

Reads the NAME.source.csv files (ncu's source page, SASS with per-instruction stall
samples) and prints, per kernel: the share of each stall reason over all samples, and
the instructions with the most samples, each with its two main reasons.
    python3 tests/cuda/diagnose_stalls.py DIR [TOP]     (DIR: the archive unpacked)
"""
import csv
import glob
import os
import sys


def kernels(path):
    """(kernel name, header, rows) for each kernel in one source-page CSV, once each."""
    seen, cur = {}, None
    for row in csv.reader(open(path, newline="")):
        if not row:
            continue
        if row[0] == "Kernel Name":
            cur = None if row[1] in seen else seen.setdefault(row[1], {"hdr": None, "rows": []})
        elif cur is not None and row[0] == "Address":
            cur["hdr"] = row
        elif cur is not None and cur["hdr"]:
            cur["rows"].append(row)
    return [(name, k["hdr"], k["rows"]) for name, k in seen.items() if k["hdr"]]


def number(text):
    try:
        return int(text)
    except ValueError:
        return 0


def report(name, hdr, rows, top):
    ix = {k: i for i, k in enumerate(hdr)}
    reasons = [k for k in hdr if k.startswith("stall_") and "Not Issued" not in k]
    samples = "Warp Stall Sampling (All Samples)"
    total = sum(number(r[ix[samples]]) for r in rows) or 1
    by_reason = {k: sum(number(r[ix[k]]) for r in rows) for k in reasons}
    print(f"== {name[:100]}  ({total} samples)")
    shares = [f"{k[6:]} {100 * v / total:.0f}%" for k, v in sorted(by_reason.items(), key=lambda x: -x[1])
              if 100 * v / total >= 2]
    print("   " + ", ".join(shares))
    for r in sorted(rows, key=lambda r: -number(r[ix[samples]]))[:top]:
        s = number(r[ix[samples]])
        why = sorted(((number(r[ix[k]]), k[6:]) for k in reasons), reverse=True)[:2]
        why = ", ".join(f"{w} {n}" for n, w in why if n)
        print(f"   {100 * s / total:5.1f}%  x{r[ix['Instructions Executed']]:>7}  {r[1].strip()[:56]:56}  {why}")


def main():
    folder = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    for path in sorted(glob.glob(os.path.join(folder, "*.source.csv"))):
        print(f"# {os.path.basename(path)[:-len('.source.csv')]}")
        for name, hdr, rows in kernels(path):
            report(name, hdr, rows, top)
        print()


if __name__ == "__main__":
    main()
