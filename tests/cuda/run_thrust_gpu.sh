#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc 13 and Nsight Compute: build
# tests/libs/thrust_basics.cu against CUDA 13's Thrust, run it, and record its
# launches' names and configurations with ncu. Writes into DIR (default .):
# thrust_stdout.txt, ncu_thrust.csv, gpu.txt (docs/validation/h200-cub.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-.}")
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -o /tmp/thrust_gpu tests/libs/thrust_basics.cu 2> "$out/nvcc_thrust.err"
(/tmp/thrust_gpu > "$out/thrust_stdout.txt" 2>&1; echo "exit $?" >> "$out/thrust_stdout.txt")
timeout 120 ncu --clock-control none --csv --metrics launch__grid_size,launch__block_size /tmp/thrust_gpu > "$out/ncu_thrust.csv" 2> "$out/ncu_thrust.err"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
