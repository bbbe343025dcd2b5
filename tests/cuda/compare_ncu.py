#!/usr/bin/env python3
"""Compare the simulator's per-launch counters with Nsight Compute's.

usage: compare_ncu.py SIM_JSON NCU_CSV [--labels FILE] [--title T] > report.md

SIM_JSON: the JSON array simtlab prints (one object per launch, metrics by ncu name).
NCU_CSV:  `ncu --csv --metrics ...` output for the same program, same launch order.
Deterministic counters must match exactly; DRAM bytes are estimates and shown
for information; gpu__time_duration is the measured time.
"""
import csv
import json
import sys
from collections import OrderedDict

EXACT = [
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
]
ESTIMATES = ["dram__bytes_read.sum", "dram__bytes_write.sum"]
SHORT = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": "gld req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": "gld sect",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": "gst req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": "gst sect",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum": "atom req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum": "atom sect",
    "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum": "red req",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum": "red sect",
    "smsp__sass_inst_executed_op_shared_ld.sum": "lds inst",
    "smsp__sass_inst_executed_op_shared_st.sum": "sts inst",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": "lds wf",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": "sts wf",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": "lds confl",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": "sts confl",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": "fadd",
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": "fmul",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": "ffma",
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": "dadd",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": "dmul",
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": "dfma",
    "dram__bytes_read.sum": "dram rd B",
    "dram__bytes_write.sum": "dram wr B",
}


def read_ncu(path):
    launches = OrderedDict()
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        key = int(row["ID"])
        entry = launches.setdefault(key, {"kernel": row["Kernel Name"], "grid": row["Grid Size"],
                                          "block": row["Block Size"], "metrics": {}})
        value = row["Metric Value"].replace(",", "")
        try:
            entry["metrics"][row["Metric Name"]] = float(value)
        except ValueError:
            pass
        entry["metrics"][row["Metric Name"] + "#unit"] = row["Metric Unit"]
    return list(launches.values())


def ncu_value(m, name):
    """simtlab files atomics as ncu does: op_atom when the result is used, op_red when not."""
    return m.get(name)


def time_ns(m):
    v = m.get("gpu__time_duration.sum")
    unit = m.get("gpu__time_duration.sum#unit", "ns")
    if v is None:
        return None
    return v * {"ns": 1, "nsecond": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6}.get(unit, 1)


def main():
    args = sys.argv[1:]
    labels, title = None, "Simulator vs Nsight Compute"
    if "--labels" in args:
        i = args.index("--labels")
        labels = [l.rstrip("\n") for l in open(args[i + 1])]
        del args[i:i + 2]
    if "--title" in args:
        i = args.index("--title")
        title = args[i + 1]
        del args[i:i + 2]
    sim = json.load(open(args[0]))
    gpu = read_ncu(args[1])
    print(f"## {title}\n")
    if len(sim) != len(gpu):
        print(f"**launch count differs: simulator {len(sim)}, ncu {len(gpu)}**\n")
    total = mismatched = 0
    rows = []
    for i, (s, g) in enumerate(zip(sim, gpu)):
        label = labels[i] if labels and i < len(labels) else s["kernel"]
        diffs, shown = [], []
        for name in EXACT:
            sv = s["metrics"].get(name, 0)
            gv = ncu_value(g["metrics"], name)
            if gv is None:
                continue
            total += 1
            if sv == 0 and gv == 0:
                continue
            ok = abs(sv - gv) < 0.5
            mismatched += not ok
            shown.append(f"{SHORT[name]} {int(sv)}" + ("" if ok else f" **(ncu {int(gv)})**"))
        est = ", ".join(f"{SHORT[n]} {int(s['metrics'].get(n, 0))} / {int(g['metrics'].get(n, 0))}"
                        for n in ESTIMATES if n in g["metrics"])
        t = time_ns(g["metrics"])
        rows.append((i, label, "; ".join(shown), est, "" if t is None else f"{t / 1000:.2f}"))
    print(f"{total - mismatched} of {total} deterministic counter values equal Nsight Compute's "
          f"({mismatched} differ, in bold with ncu's value).\n")
    print("| # | launch | counters (simulator; **ncu** where different) | DRAM bytes sim est. / ncu | GPU time µs |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    return 0 if mismatched == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
