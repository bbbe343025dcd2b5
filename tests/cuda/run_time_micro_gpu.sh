#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: time the kernel time
# model's microbenchmarks (tests/cuda/time_micro.cuh) and print the constants they
# give for cost/catalog/devices.json ("kernel_model"). Writes DIR/ncu_time_micro.csv.
#   bash tests/cuda/run_time_micro_gpu.sh OUTDIR [CLOCK_MHZ]   (1980 for the H200)
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
clock=${2:-1980}
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -I. -o /tmp/time_micro_gpu tests/cuda/time_micro_main.cu
ncu --clock-control none --csv --metrics gpu__time_duration.sum /tmp/time_micro_gpu > "$out/ncu_time_micro.csv"
python3 tests/cuda/calibrate_time_model.py micro "$out/ncu_time_micro.csv" "$clock"
