#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: what a launch's first loads
# cost with the caches flushed before it (ncu's default, --cache-control all, under
# which the time-model validation set is timed) and without (--cache-control none).
#   1. tests/cuda/cold_start_probe.cu, timed both ways;
#   2. every case of the validation set (tests/cuda/time_model_set.py's case files),
#      timed both ways, one ncu pass a launch (gpu__time_duration only).
# Writes OUTDIR/cold_start.tar.gz (CSV per probe/set and mode).
#   bash tests/cuda/run_cold_start_probe_gpu.sh OUTDIR
# (COLD_START_BUDGET_S, default 400: seconds for step 2, so that what was timed is packed
# within a 10-minute command.)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
work=$(mktemp -d)
mkdir -p "$out" "$work/csv"
nvcc -std=c++20 --fmad=false -arch=sm_90 -o "$work/cold_start_probe" tests/cuda/cold_start_probe.cu
"$work/cold_start_probe"
for mode in all none; do
  ncu --clock-control none --cache-control $mode --csv --metrics gpu__time_duration.sum \
    "$work/cold_start_probe" > "$work/csv/cold_start_probe.$mode.csv"
done
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do
  echo "$s"
done | xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $work/\$(echo {} | tr / _).o || echo 'NOT BUILT: {}'"
nvcc $flags -o "$work/kernel_timing" "$work"/*.o
# A deadline (SECONDS, default 400) leaves time to pack what was timed.
deadline=$((SECONDS + ${COLD_START_BUDGET_S:-400}))
# The validation set's case files, as tests/cuda/time_model_set.py lists them.
sets=$(python3 -c "import sys; sys.path.insert(0, 'tests/cuda'); import time_model_set as t; \
print(' '.join(c.split('/')[-1][:-4] for _, c, _ in t.SETS))")
for cases in $sets; do
  for mode in all none; do
    left=$((deadline - SECONDS))
    [ "$left" -gt 5 ] || { echo "$cases $mode: out of time"; continue; }
    timeout "$left" ncu --clock-control none --cache-control $mode --csv --metrics gpu__time_duration.sum \
      "$work/kernel_timing" "tests/cuda/$cases.txt" > "$work/csv/$cases.$mode.csv" 2> "$work/csv/$cases.$mode.log" || true
    echo "$cases $mode: $(grep -c gpu__time_duration "$work/csv/$cases.$mode.csv") launches"
  done
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/csv/device.txt"
tar -czf "$out/cold_start.tar.gz" -C "$work/csv" .
