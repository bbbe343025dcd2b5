#!/usr/bin/env python3
"""Predicted (kernel time model on simulator counters) vs measured (ncu) kernel times.

usage: time_model_report.py collect SIMT_BIN OUT.json CASES...   # run every case in the simulator
       time_model_report.py report SIM.json CASES NCU.csv [CASES NCU.csv ...]
                                                               # markdown on stdout

The cases files list `simt run` arguments, one launch sequence per line, in the order
the GPU run (tests/cuda/run_timing_gpu.sh) timed them; each NCU.csv holds that run's
gpu__time_duration per launch. The report gives every launch, the share within 25%,
and for each ladder of kernels (the same lesson in better and better versions) whether
the predicted order of the first launches matches the measured one.
"""
import csv
import json
import shlex
import subprocess
import sys

# The ladders of kernels/: each from the slowest (first lesson) to the fastest version.
LADDERS = {
    "transposes": ["transpose_naive", "transpose_shared", "transpose_padded"],
    "reductions": ["reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential",
                   "reduce_warp_shuffle"],
    "matmuls": ["matmul_naive", "matmul_coalesced", "matmul_tiled"],
}
WITHIN = 0.25
# Kept per launch for tests/cuda/instruction_report.py.
INSTRUCTION_METRICS = ["smsp__inst_executed.sum", "smsp__thread_inst_executed.sum", "simt__warp_inst_counted.sum"]


def cases(path):
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


def collect(simt, out, paths):
    runs = {}
    for path in paths:
        for line in cases(path):
            cmd = [simt, "run"] + shlex.split(line) + ["--json", "--no-races", "--device", "H200"]
            launches = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            runs[line] = [{"kernel": l["kernel"], "grid": l["grid"], "block": l["block"], "time": l["time"],
                           "insts": {k: l["metrics"].get(k, 0) for k in INSTRUCTION_METRICS}}
                          for l in launches]
            print(f"{line}: {len(launches)} launch(es)", file=sys.stderr)
    json.dump(runs, open(out, "w"), indent=1)


def read_ncu_times(path):
    rows = [l for l in open(path) if l.startswith('"')]
    scale = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3}
    times = {}
    for r in csv.DictReader(rows):
        if r["Metric Name"] == "gpu__time_duration.sum":
            times[int(r["ID"])] = float(r["Metric Value"].replace(",", "")) * scale.get(r["Metric Unit"], 1e-9)
    return [times[i] for i in sorted(times)]


def pair(sim, cases_path, ncu_path):
    """[(case, launch index, sim launch, measured s)] in launch order."""
    flat = [(c, i, l) for c in cases(cases_path) for i, l in enumerate(sim[c])]
    measured = read_ncu_times(ncu_path)
    if len(flat) != len(measured):
        raise SystemExit(f"{ncu_path}: {len(measured)} launches timed, {len(flat)} simulated from {cases_path}")
    return [(c, i, l, m) for (c, i, l), m in zip(flat, measured)]


def base_kernel(case):
    return case.split()[0]


def size_of(case):
    """The size arguments of a case, without the kernel name and a tile choice."""
    words = case.split()[1:]
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
        elif w == "--tile":
            skip = True
        else:
            out.append(w)
    return " ".join(out)


def ladders(rows, label):
    """Lines saying, for each ladder at each size, whether the first launches are in measured order.

    A size is the case's arguments (a tile choice aside: the last case listed wins,
    tile 32 in the timing files)."""
    first = {(base_kernel(c), size_of(c)): (l["time"]["predicted_s"], m) for c, i, l, m in rows if i == 0}
    sizes = []
    for _, size in first:
        if size not in sizes:
            sizes.append(size)
    out, in_order, total = [], 0, 0
    for name, kernels in LADDERS.items():
        for size in sizes:
            if not all((k, size) in first for k in kernels):
                continue
            t = {k: first[(k, size)] for k in kernels}
            measured = sorted(kernels, key=lambda k: -t[k][1])
            ok = measured == sorted(kernels, key=lambda k: -t[k][0])
            in_order += ok
            total += 1
            times = ", ".join(f"{k} {t[k][0] * 1e6:.3g} / {t[k][1] * 1e6:.3g}" for k in measured)
            where = f"{label}, {name}" + (f" at `{size}`" if size else "")
            out.append(f"- {where}: {'in order' if ok else 'OUT OF ORDER'} (predicted / measured µs: {times})")
    return out, in_order, total


def report(sim_path, pairs):
    sim = json.load(open(sim_path))
    print("| case | launch | grid x block | bound | predicted µs | measured µs | predicted / measured | |")
    print("|---|---|---|---|---|---|---|---|")
    within = total = 0
    ladder_lines, ladders_ok, ladders_total = [], 0, 0
    for cases_path, ncu_path in pairs:
        rows = pair(sim, cases_path, ncu_path)
        for case, i, l, m in rows:
            t = l["time"]
            ratio = t["predicted_s"] / m
            ok = abs(ratio - 1) <= WITHIN
            within += ok
            total += 1
            shape = f"{l['grid'][0] * l['grid'][1] * l['grid'][2]} x {l['block'][0] * l['block'][1] * l['block'][2]}"
            print(f"| `{case}` | {i + 1} | {shape} | {t['bound']} | {t['predicted_s'] * 1e6:.3g} | {m * 1e6:.3g} "
                  f"| {ratio:.2f} | {'' if ok else 'miss'} |")
        lines, ok, n = ladders(rows, ncu_path.split("/")[-1])
        ladder_lines += lines
        ladders_ok += ok
        ladders_total += n
    print(f"\n**{within} of {total} launches within {WITHIN:.0%}** of the measured time; "
          f"**{ladders_ok} of {ladders_total} ladders** in the measured order.\n")
    print("\n".join(ladder_lines))


def main(argv):
    if len(argv) >= 4 and argv[1] == "collect":
        collect(argv[2], argv[3], argv[4:])
        return 0
    if len(argv) >= 5 and argv[1] == "report" and len(argv) % 2 == 1:
        report(argv[2], list(zip(argv[3::2], argv[4::2])))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
