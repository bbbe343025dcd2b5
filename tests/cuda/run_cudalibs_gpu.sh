#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc 13 and Nsight Compute: build simtlab's
# CUDA-library validation programs (tests/libs/*.cu) with nvcc against the real
# CUB, cuRAND, cuBLAS and cuBLASLt, run them, and measure the CUB launches with
# ncu. Writes into DIR (default .): NAME_stdout.txt, the programs' output files
# (normals_*.txt, gemm_*.bin), ncu_cub.csv, ncu_cub_barriers.csv, cub.sass, gpu.txt.
# Compared with simtlab by tests/libs/compare_cudalibs.py (docs/validation/h200-cudalibs.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-.}")
mkdir -p "$out"
flags="-std=c++20 --fmad=false -arch=sm_90 -lineinfo"
nvcc $flags -o /tmp/cub_gpu tests/libs/cub_primitives.cu &
nvcc $flags -o /tmp/curand_gpu tests/libs/curand_sequences.cu &
nvcc $flags -o /tmp/cublas_gpu tests/libs/cublas_gemm.cu -lcublas -lcublasLt &
nvcc $flags -o /tmp/radix_gpu tests/libs/cub_radix_sort.cu &
nvcc $flags -o /tmp/commutative_gpu tests/libs/cub_reduce_commutative.cu &
wait
for p in cub curand cublas radix commutative; do (cd "$out" && /tmp/${p}_gpu > "${p}_stdout.txt" 2>&1; echo "exit $?" >> "${p}_stdout.txt"); done
metrics=$(paste -sd, tests/cuda/ncu_metrics.txt)
ncu --clock-control none --csv --metrics "$metrics" /tmp/cub_gpu > "$out/ncu_cub.csv" 2> "$out/ncu_cub.err"
ncu --clock-control none --csv --metrics smsp__inst_executed_op_barrier.sum,smsp__inst_executed_op_shfl.sum,smsp__sass_inst_executed_op_shared_ld.sum \
    /tmp/cub_gpu > "$out/ncu_cub_barriers.csv" 2> "$out/ncu_cub_barriers.err"
ncu --clock-control none --csv --metrics "$metrics" /tmp/curand_gpu > "$out/ncu_curand.csv" 2> "$out/ncu_curand.err"
ncu --clock-control none --csv --metrics "$metrics" /tmp/cublas_gpu > "$out/ncu_cublas.csv" 2> "$out/ncu_cublas.err"
cuobjdump --dump-sass /tmp/cub_gpu > "$out/cub.sass"
cuobjdump --dump-sass /tmp/curand_gpu > "$out/curand.sass"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
