#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: time
# tests/cuda/l1_latency_probe.cu's launches (a dependent chase in L1 at 64, 256 and
# 1,024 hops; in DRAM at 1 and 32) and print the clocks a hop.
#   bash tests/cuda/run_l1_latency_gpu.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
mkdir -p "$out"
nvcc -std=c++20 -arch=sm_90 -o /tmp/l1_latency_probe tests/cuda/l1_latency_probe.cu
/tmp/l1_latency_probe
metrics=gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_active.max
ncu --clock-control none --csv --metrics "$metrics" /tmp/l1_latency_probe > "$out/ncu_l1_latency_probe.csv"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
python3 - "$out/ncu_l1_latency_probe.csv" <<'PY' | tee "$out/l1_latency_report.txt"
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
h = rows[0]
active = {}
for r in rows[1:]:
    d = dict(zip(h, r))
    if d["Metric Name"] == "sm__cycles_active.max":
        active[int(d["ID"])] = float(d["Metric Value"].replace(",", ""))
a = [active[i] for i in sorted(active)]
print("busiest SM's active cycles per launch:", " ".join(f"{x:.0f}" for x in a))
print(f"L1 hit, dependent: {(a[2] - a[1]) / 768:.1f} clk a hop (1,024 - 256 hops), "
      f"{(a[1] - a[0]) / 192:.1f} (256 - 64)")
print(f"DRAM, dependent (a page a hop): {(a[4] - a[3]) / 31:.0f} clk a hop (32 - 1 hops)")
PY
