#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: time every launch of tests/cuda/timing_cases.txt
# with Nsight Compute (cold caches, clocks as they are), and measure the counters of
# every launch of tests/cuda/counter_cases.txt. Writes DIR/ncu_timing.csv and
# DIR/ncu_kernels.csv. With --sizes, times tests/cuda/timing_sizes.txt instead (every
# course kernel at three sizes, the time model's validation set) into
# DIR/ncu_timing_sizes.csv.
#   bash tests/cuda/run_timing_gpu.sh OUTDIR [--sizes]
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
build=$(mktemp -d)
mkdir -p "$out"
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do echo "$s"; done |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $build/\$(echo {} | tr / _).o"
nvcc $flags -o "$build/kernel_timing" "$build"/*.o
time_metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
if [[ "${2:-}" == "--sizes" ]]; then
  ncu --clock-control none --csv --metrics "$time_metrics,sm__cycles_elapsed.avg.per_second" \
    "$build/kernel_timing" tests/cuda/timing_sizes.txt > "$out/ncu_timing_sizes.csv"
  grep -c gpu__time_duration "$out/ncu_timing_sizes.csv"
  exit 0
fi
ncu --clock-control none --csv --metrics "$time_metrics" \
  "$build/kernel_timing" tests/cuda/timing_cases.txt > "$out/ncu_timing.csv"
ncu --clock-control none --csv --metrics "$(paste -sd, tests/cuda/ncu_metrics.txt)" \
  "$build/kernel_timing" tests/cuda/counter_cases.txt > "$out/ncu_kernels.csv"
grep -c gpu__time_duration "$out/ncu_timing.csv" "$out/ncu_kernels.csv"
