#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: time
# tests/cuda/l1_row_walk_probe.cu's launches (one block an SM of 1-32 warps, then 64,
# each thread summing its own row) with L1's hit rate and wavefronts, and print the
# clocks per line a warp's loads touch.
#   bash tests/cuda/run_l1_row_walk_gpu.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
mkdir -p "$out"
nvcc -std=c++20 -arch=sm_90 -o /tmp/l1_row_walk_probe tests/cuda/l1_row_walk_probe.cu
/tmp/l1_row_walk_probe
ncu --clock-control none --csv --page raw --print-units base --section MemoryWorkloadAnalysis_Tables \
  --section SpeedOfLight --metrics gpu__time_duration.sum,sm__cycles_active.max \
  /tmp/l1_row_walk_probe > "$out/ncu_l1_row_walk_raw.csv"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
python3 tests/cuda/l1_row_walk_report.py "$out/ncu_l1_row_walk_raw.csv" --probe | tee "$out/l1_row_walk_report.txt"
