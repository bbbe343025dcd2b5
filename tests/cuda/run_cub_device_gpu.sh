#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc 13 and Nsight Compute: build
# tests/libs/cub_device.cu against CUDA 13's CUB, run it three times (a float scan's
# look-back order may depend on timing), keep the float scans' outputs, and record
# every CUB launch's name, configuration and counters with ncu. Writes into DIR
# (default .): cub_device_stdout.txt, run2/run3 stdouts, inclusive_sum_float_*.bin,
# ncu_cub_device.csv, gpu.txt (docs/validation/h200-cub.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-.}")
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -o /tmp/cub_device_gpu tests/libs/cub_device.cu 2> "$out/nvcc.err"
(/tmp/cub_device_gpu "$out" > "$out/cub_device_stdout.txt" 2>&1; echo "exit $?" >> "$out/cub_device_stdout.txt")
for r in 2 3; do (/tmp/cub_device_gpu > "$out/cub_device_stdout_run$r.txt" 2>&1; echo "exit $?" >> "$out/cub_device_stdout_run$r.txt"); done
metrics="launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,$(paste -sd, tests/cuda/ncu_metrics.txt)"
timeout 150 ncu --clock-control none --csv --metrics "$metrics" /tmp/cub_device_gpu > "$out/ncu_cub_device.csv" 2> "$out/ncu_cub_device.err"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
