#!/usr/bin/python3
"""Sampled against exact, launch by launch, for the launches that were sampled.

usage: compare_launches.py EXACT.json SAMPLED.json
(the SIMT_REPORT_JSON files of one program run with SIMT_EXACT=1 and without)."""
import json
import sys

exact, sampled = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
metrics = [("FADD", "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"),
           ("instructions", "smsp__inst_executed.sum"),
           ("load sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
           ("DRAM read", "dram__bytes_read.sum"), ("DRAM write", "dram__bytes_write.sum")]
print("| launch | kernel | block | counted | reported error | " + " | ".join(m for m, _ in metrics) + " |")
print("|---" * (5 + len(metrics)) + "|")
for i, (e, s) in enumerate(zip(exact, sampled)):
    assert e["kernel"] == s["kernel"]
    if not s.get("counted_blocks"):
        continue
    blocks = e["grid"][0] * e["grid"][1] * e["grid"][2]
    diffs = [f"{100 * (s['metrics'].get(k, 0) / e['metrics'][k] - 1):+.2f}%" if e["metrics"].get(k) else "—"
             for _, k in metrics]
    print(f"| {i + 1} | {e['kernel']} | {e['block'][0]} | {s['counted_blocks']} of {blocks} | "
          f"{100 * s.get('sample_error', 0):.2g}% | " + " | ".join(diffs) + " |")
