#!/usr/bin/env python3
"""The atomics probe's H200 measurements, launch by launch (tests/cuda/atomics_probe.cu).

usage: atomics_report.py DIR [SIM_JSON]   (DIR: what tests/cuda/run_atomics_gpu.sh wrote)

Prints a Markdown table per metric group: each launch's label (gpu_stdout.txt), its
Nsight Compute metrics, and with SIM_JSON (simt exec --json of the same program) the
simulator's RED/ATOM counters and predicted time next to them.
"""
import csv
import json
import sys


def labels(path):
    out = []
    for line in open(path):
        if line.startswith("launch "):
            out.append(line.split()[2])
    return out


def ncu(path):
    """{launch index: {metric: value}} from an `ncu --csv` file (program output skipped)."""
    rows = [l for l in open(path) if l.startswith('"')]
    out = {}
    for r in csv.DictReader(rows):
        v = r["Metric Value"].replace(",", "")
        try:
            val = float(v)
        except ValueError:
            continue
        unit = r.get("Metric Unit", "")
        if unit == "usecond":
            val *= 1e3
        elif unit == "msecond":
            val *= 1e6
        elif unit == "second":
            val *= 1e9
        out.setdefault(int(r["ID"]), {})[r["Metric Name"]] = val
    return out


SHORT = {
    "gpu__time_duration.sum": "time ns",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum": "atom req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum": "atom sect",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": "red req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum": "red sect",
    "smsp__sass_inst_executed_op_global_atom.sum": "ATOM inst",
    "smsp__sass_inst_executed_op_global_red.sum": "RED inst",
    "smsp__sass_inst_executed_op_shared_atom.sum": "ATOMS inst",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum": "ATOMS wf",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum": "ATOMS confl",
    "lts__t_sectors_op_atom.sum": "L2 atom sect",
    "lts__t_sectors_op_red.sum": "L2 red sect",
    "lts__t_requests_srcunit_tex_op_atom.sum": "L2 atom req",
    "lts__t_requests_srcunit_tex_op_red.sum": "L2 red req",
}


def table(names, data, metrics):
    head = "| # | launch | " + " | ".join(SHORT.get(m, m) for m in metrics) + " |"
    print(head)
    print("|" + "---|" * (len(metrics) + 2))
    for i, name in enumerate(names):
        d = data.get(i, {})
        cells = [f"{d[m]:,.0f}" if m in d else "—" for m in metrics]
        print(f"| {i + 1} | {name} | " + " | ".join(cells) + " |")
    print()


COMPARED = [
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "smsp__sass_inst_executed_op_shared_atom.sum",
]


def compare(names, gpu, sim):
    """Counters metric by metric (simulator; ncu where it differs) and times."""
    print("| # | launch | counters: simulator (**ncu** where different) | hot rounds | measured µs | "
          "predicted µs | predicted / measured | binding term |")
    print("|---|---|---|---|---|---|---|---|")
    equal = total = 0
    for i, name in enumerate(names):
        g, s = gpu.get(i, {}), sim[i]["metrics"] if i < len(sim) else {}
        cells = []
        for m in COMPARED:
            if m not in g:
                continue
            sv, gv = s.get(m, 0), g[m]
            total += 1
            equal += sv == gv
            if sv or gv:
                cells.append(f"{SHORT[m]} {sv:,.0f}" + ("" if sv == gv else f" **({gv:,.0f})**"))
        clock = sim[i].get("clock", {}) if i < len(sim) else {}
        t_gpu = g.get("gpu__time_duration.sum", 0) / 1e3
        t_sim = clock.get("seconds", 0) * 1e6
        ratio = f"{t_sim / t_gpu:.2f}" if t_gpu else "—"
        print(f"| {i + 1} | {name} | {'; '.join(cells)} | {s.get('simt__global_atomic_hot_rounds.max', 0):,} | "
              f"{t_gpu:,.1f} | {t_sim:,.1f} | {ratio} | {clock.get('bound', '')} |")
    print(f"\n{equal} of {total} counter values equal Nsight Compute's.\n")


def main():
    d = sys.argv[1]
    names = labels(f"{d}/gpu_stdout.txt")
    if len(sys.argv) > 2:
        gpu = ncu(f"{d}/ncu_atomics_l1.csv")
        for k, v in ncu(f"{d}/ncu_atomics_inst.csv").items():
            gpu.setdefault(k, {}).update(v)
        print("### Simulator vs H200\n")
        compare(names, gpu, json.load(open(sys.argv[2])))
    for group in ("l1", "inst", "lts"):
        data = ncu(f"{d}/ncu_atomics_{group}.csv")
        metrics = [m for m in SHORT if any(m in v for v in data.values())]
        metrics = [m for m in metrics if not m.endswith(("op_ld.sum", "op_st.sum"))]
        print(f"### ncu: {group}\n")
        table(names, data, metrics)


if __name__ == "__main__":
    main()
