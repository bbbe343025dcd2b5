#!/usr/bin/env python3
"""The compiler front end's instruction estimate vs Nsight Compute's count.

usage: instruction_report.py SIM.json CASES NCU_INSTS.csv [CASES NCU_INSTS.csv ...]

SIM.json is what `time_model_report.py collect` writes (every case of the cases
files run by `simt run`); each NCU_INSTS.csv is ncu's smsp__inst_executed.sum and
smsp__thread_inst_executed.sum for the same launches (tests/cuda/run_insts_gpu.sh).
Prints a markdown table (estimate / measured per launch) and the spread of the ratios.
"""
import csv
import statistics
import sys

from time_model_report import cases


def read_ncu_metric(path, name):
    rows = [l for l in open(path) if l.startswith('"')]
    values = {}
    for r in csv.DictReader(rows):
        if r["Metric Name"] == name:
            values[int(r["ID"])] = float(r["Metric Value"].replace(",", ""))
    return [values[i] for i in sorted(values)]


def main(argv):
    if len(argv) < 4 or len(argv) % 2 != 0:
        print(__doc__, file=sys.stderr)
        return 2
    import json
    sim = json.load(open(argv[1]))
    print("| case | launch | grid x block | ncu warp inst | estimate | estimate / ncu | thread-level estimate / ncu |")
    print("|---|---|---|---|---|---|---|")
    ratios, seen = [], set()
    for cases_path, ncu_path in zip(argv[2::2], argv[3::2]):
        flat = [(c, i, l) for c in cases(cases_path) for i, l in enumerate(sim[c])]
        warp = read_ncu_metric(ncu_path, "smsp__inst_executed.sum")
        thread = read_ncu_metric(ncu_path, "smsp__thread_inst_executed.sum")
        if len(flat) != len(warp):
            raise SystemExit(f"{ncu_path}: {len(warp)} launches measured, {len(flat)} simulated from {cases_path}")
        for (case, i, l), w, t in zip(flat, warp, thread):
            if (case, i) in seen:
                continue  # the same launch in two case files
            seen.add((case, i))
            est, est_t = l["insts"]["smsp__inst_executed.sum"], l["insts"]["smsp__thread_inst_executed.sum"]
            blocks = l["grid"][0] * l["grid"][1] * l["grid"][2]
            threads = l["block"][0] * l["block"][1] * l["block"][2]
            r, rt = est / w, est_t / t
            ratios.append(r)
            print(f"| `{case}` | {i + 1} | {blocks} x {threads} | {w:.4g} | {est:.4g} | {r:.2f} | {rt:.2f} |")
    within = sum(1 for r in ratios if abs(r - 1) <= 0.25)
    print()
    print(f"{len(ratios)} launches: estimate / ncu median {statistics.median(ratios):.2f}, "
          f"min {min(ratios):.2f}, max {max(ratios):.2f}; {within} within 25%.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
