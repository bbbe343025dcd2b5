#!/usr/bin/env python3
"""The labs' counters, simulated against Nsight Compute on a GPU.

labs_on_gpu.sh (on the GPU machine) ran every kernel lab's solution at each case under
ncu; this runs the same files at the same cases under `simt exec --json` and compares
launch by launch the counters the labs grade. Prints a markdown report (the one in
docs/validation/labs-h200.md) and exits 1 if an exact counter differs.

    python3 tests/labs/gpu/compare_labs.py build/cli/simt GPU_OUT_DIR > report.md
"""
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

EXACT = [
    ("ld requests", ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]),
    ("ld sectors", ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]),
    ("st requests", ["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]),
    ("st sectors", ["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]),
    ("shared ld wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]),
    ("shared st wavefronts", ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]),
    ("shared ld conflicts", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]),
    ("shared st conflicts", ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]),
]


def ncu_launches(path):
    """Rows of an `ncu --csv --page raw` file: one dict per launch, numbers as floats."""
    with open(path) as f:
        lines = [l for l in f if l.startswith('"')]
    if len(lines) < 3:
        return []
    rows = list(csv.reader(lines))
    header, data = rows[0], rows[2:]  # rows[1]: units
    out = []
    for r in data:
        d = dict(zip(header, r))
        for k, v in d.items():
            try:
                d[k] = float(v.replace(",", ""))
            except ValueError:
                pass
        out.append(d)
    return out


def simulated(simt, lab, args):
    spec = json.load(open(os.path.join(lab, "checks.json")))
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "launches.json")
        cmd = [simt, "exec", os.path.join(lab, spec["solution"]), "-I", "labs/common", "-I", lab,
               f"--json={report}", "--"] + args
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr[-1500:]}")
        return json.load(open(report))


def main():
    simt, gpu = sys.argv[1], sys.argv[2]
    mismatches, compared, rows = [], 0, []
    time_ratios = []
    for lab in sorted(glob.glob("labs/[0-9]*")):
        spec = json.load(open(os.path.join(lab, "checks.json")))
        if spec.get("kind", "kernel") != "kernel":
            continue
        name = os.path.basename(lab)
        for case in spec["cases"]:
            path = os.path.join(gpu, f"{name}-{case['name']}.ncu.csv")
            if not os.path.exists(path):
                continue
            gpu_launches = ncu_launches(path)
            args = [f"{k}={v}" for k, v in case.get("args", {}).items()]
            sim_launches = simulated(simt, lab, args)
            if len(gpu_launches) != len(sim_launches):
                mismatches.append(f"{name} {case['name']}: {len(sim_launches)} launches simulated, {len(gpu_launches)} on the GPU")
                continue
            equal = total = 0
            for k, (s, g) in enumerate(zip(sim_launches, gpu_launches)):
                for label, names in EXACT:
                    sv = sum(s["metrics"].get(n, 0) for n in names)
                    gv = sum(g.get(n, 0) for n in names)
                    if "ld requests" == label:  # the GPU splits returnless atomics off as RED
                        pass
                    total += 1
                    if sv == gv:
                        equal += 1
                    else:
                        mismatches.append(f"{name} {case['name']} launch {k + 1} ({s['kernel'][:40]}): {label} simulated {sv:g}, ncu {gv:g}")
                if s.get("time") and g.get("gpu__time_duration.sum"):
                    predicted = s["time"].get("predicted_s", 0)
                    measured = g["gpu__time_duration.sum"] * 1e-9
                    if predicted and measured:
                        time_ratios.append((name, case["name"], predicted / measured, predicted, measured))
            compared += total
            rows.append(f"| {name} | {case['name']} | {len(sim_launches)} | {equal} of {total} |")
    print("| lab | case | launches | exact counters equal to ncu |")
    print("|---|---|---:|---:|")
    print("\n".join(rows))
    print()
    print(f"{compared - len(mismatches)} of {compared} counter values equal.")
    if mismatches:
        print("\nDifferences:\n")
        for m in mismatches:
            print(f"- {m}")
    if time_ratios:
        r = sorted(x[2] for x in time_ratios)
        within = sum(1 for x in r if 0.8 <= x <= 1.25)
        print(f"\nPredicted time / measured (gpu__time_duration, clocks not locked), {len(r)} launches: "
              f"median {r[len(r) // 2]:.2f}, range {r[0]:.2f}–{r[-1]:.2f}, {within} within 0.8–1.25.")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
