#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: build the pattern
# launches with nvcc and measure them with ncu. Writes into DIR (default .):
#   ncu_patterns.csv (raw ncu CSV), patterns.sass (cuobjdump), gpu_stdout.txt
# Compare with the simulator: python3 tests/cuda/compare_ncu.py (docs/validation/).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -I. -o /tmp/patterns_gpu tests/cuda/patterns_main.cu
/tmp/patterns_gpu > "$out/gpu_stdout.txt"
metrics=$(paste -sd, tests/cuda/ncu_metrics.txt)
ncu --clock-control none --csv --metrics "$metrics" /tmp/patterns_gpu > "$out/ncu_patterns.csv"
cuobjdump --dump-sass /tmp/patterns_gpu > "$out/patterns.sass"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
