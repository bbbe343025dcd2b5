#!/usr/bin/env python3
"""Predicted (roofline on simulator counters) vs measured (ncu) kernel times.

usage: roofline_report.py collect SIMT_BIN CASES OUT.json   # run every case in the simulator
       roofline_report.py report SIM.json NCU_TIMING.csv     # markdown table on stdout
"""
import csv
import json
import shlex
import subprocess
import sys
from collections import OrderedDict


def cases(path):
    for line in open(path):
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


def collect(simt, path, out):
    runs = []
    for line in cases(path):
        cmd = [simt, "run"] + shlex.split(line) + ["--json", "--no-races", "--device", "H200"]
        launches = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        runs.append({"case": line, "launches": [
            {"kernel": l["kernel"], "roofline": l["roofline"],
             "dram_bytes": l["metrics"]["dram__bytes.sum"],
             "flops": l["metrics"]["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"]
             + l["metrics"]["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"]
             + 2 * l["metrics"]["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"]} for l in launches]})
        print(f"{line}: {len(launches)} launch(es)", file=sys.stderr)
    json.dump(runs, open(out, "w"), indent=1)


def read_ncu(path):
    launches = OrderedDict()
    with open(path) as f:
        rows = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(rows):
        e = launches.setdefault(int(row["ID"]), {"kernel": row["Kernel Name"]})
        scale = {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3,
                 "byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}.get(row["Metric Unit"], 1)
        e[row["Metric Name"]] = float(row["Metric Value"].replace(",", "")) * scale
    return list(launches.values())


def report(sim_path, ncu_path):
    sim = json.load(open(sim_path))
    gpu = read_ncu(ncu_path)
    flat = [(run["case"], l) for run in sim for l in run["launches"]]
    if len(flat) != len(gpu):
        print(f"**launch count differs: simulator {len(flat)}, ncu {len(gpu)}**\n")
    print("| case | launch | bound | predicted µs | measured µs | measured / predicted | DRAM MB sim / ncu |")
    print("|---|---|---|---|---|---|---|")
    for (case, s), g in zip(flat, gpu):
        r = s["roofline"] or {}
        pred = r.get("time_s", 0)
        meas = g.get("gpu__time_duration.sum", 0)
        ncu_dram = g.get("dram__bytes_read.sum", 0) + g.get("dram__bytes_write.sum", 0)
        ratio = f"{meas / pred:.2f}" if pred else "-"
        print(f"| `{case}` | {s['kernel']} | {r.get('bound', '-')} | {pred * 1e6:.2f} | {meas * 1e6:.2f} | {ratio} "
              f"| {s['dram_bytes'] / 1e6:.1f} / {ncu_dram / 1e6:.1f} |")


if __name__ == "__main__":
    if sys.argv[1] == "collect":
        collect(*sys.argv[2:5])
    else:
        report(*sys.argv[2:4])
