#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: time every course kernel
# at the sizes of tests/cuda/timing_sizes.txt (cold caches, clocks as they are).
# Writes DIR/ncu_timing_sizes.csv; tests/cuda/time_model_report.py compares it with
# the kernel time model (docs/validation/h200-time-model-sizes.md).
#   bash tests/cuda/run_timing_sizes_gpu.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
build=$(mktemp -d)
mkdir -p "$out"
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do echo "$s"; done |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $build/\$(echo {} | tr / _).o"
nvcc $flags -o "$build/kernel_timing" "$build"/*.o
ncu --clock-control none --csv \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second \
  "$build/kernel_timing" tests/cuda/timing_sizes.txt > "$out/ncu_timing_sizes.csv"
grep -c gpu__time_duration "$out/ncu_timing_sizes.csv"
