#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: build every course kernel
# once with nvcc (--fmad=false, as the simulator never contracts), then
#   1. record the hashes of every kernel case's outputs (tests/cuda/kernel_cases.hpp)
#      into OUTDIR/kernel_outputs_h200.txt, as run_kernel_outputs_gpu.sh does;
#   2. profile every line of CASES ("kernel --param value ...") with ncu: the counters
#      of tests/cuda/ncu_metrics.txt, gpu__time_duration (clocks as they are) and the
#      executed instructions (all, and on the tensor pipe) into
#      OUTDIR/ncu_cases.csv.
# The simulator side of step 2 is `simt run LINE --json --no-races` per line;
# tests/cuda/compare_ncu.py puts the two side by side.
#   bash tests/cuda/run_course_kernels_gpu.sh OUTDIR CASES
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
cases=${2:?CASES file}
build=$(mktemp -d)
mkdir -p "$out"
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_outputs_main.cu tests/cuda/kernel_timing_main.cu; do
  echo "$s"
done | xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $build/\$(echo {} | tr / _).o || echo 'NOT BUILT: {}'"
common=$(ls "$build"/*.o | grep -v -e kernel_outputs_main -e kernel_timing_main)
nvcc $flags -o "$build/kernel_outputs" $common "$build/tests_cuda_kernel_outputs_main.cu.o"
nvcc $flags -o "$build/kernel_timing" $common "$build/tests_cuda_kernel_timing_main.cu.o"
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -1)"
  "$build/kernel_outputs"
} > "$out/kernel_outputs_h200.txt"
extra=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__inst_executed_pipe_tensor.sum
ncu --clock-control none --csv --metrics "$extra,$(paste -sd, tests/cuda/ncu_metrics.txt)" \
  "$build/kernel_timing" "$cases" > "$out/ncu_cases.csv"
echo "outputs: $(grep -vc '^#' "$out/kernel_outputs_h200.txt") buffers; ncu: $(grep -c gpu__time_duration "$out/ncu_cases.csv") launches"
