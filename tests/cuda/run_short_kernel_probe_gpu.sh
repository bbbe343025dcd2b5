#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: time the short-kernel and
# few-block probe (tests/cuda/short_kernel_probe.cu) and the course kernels of
# tests/cuda/time_model_ii_cases.txt, for the kernel time model
# (docs/validation/h200-short-kernels.md). Writes OUTDIR/ncu_short_kernel_probe.csv and,
# through run_course_kernels_gpu.sh, OUTDIR/ncu_cases.csv.
#   bash tests/cuda/run_short_kernel_probe_gpu.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -o /tmp/short_kernel_probe tests/cuda/short_kernel_probe.cu
/tmp/short_kernel_probe | tee "$out/short_kernel_probe_stdout.txt"
extra=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__inst_executed_pipe_tensor.sum
ncu --clock-control none --csv --metrics "$extra,$(paste -sd, tests/cuda/ncu_metrics.txt)" \
  /tmp/short_kernel_probe > "$out/ncu_short_kernel_probe.csv"
# The same launches again, timed only (no counter replay between them): a second reading.
ncu --clock-control none --csv --metrics gpu__time_duration.sum /tmp/short_kernel_probe > "$out/ncu_short_kernel_probe_time.csv"
bash tests/cuda/run_course_kernels_gpu.sh "$out" tests/cuda/time_model_ii_cases.txt
