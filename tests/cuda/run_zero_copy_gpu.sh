#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: the zero-copy programs
# built by nvcc, their outputs, and ncu's global, sysmem and DRAM counters and
# durations per launch (docs/validation/zero-copy.md).
#   bash tests/cuda/run_zero_copy_gpu.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
mkdir -p "$out"
work=$(mktemp -d)
nvcc -std=c++20 -arch=sm_90 -o "$work/zero_copy" tests/frontend/zero_copy.cu
nvcc -std=c++20 -arch=sm_90 -o "$work/zero_copy_stream" tests/cuda/zero_copy_stream.cu
nvidia-smi --query-gpu=name --format=csv,noheader > "$out/zero_copy.txt"
"$work/zero_copy" >> "$out/zero_copy.txt" 2>&1
echo "exit $?" >> "$out/zero_copy.txt"
metrics=gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,lts__t_sectors_aperture_sysmem_op_read.sum,lts__t_sectors_aperture_sysmem_op_write.sum
metrics=$metrics,dram__bytes_read.sum,dram__bytes_write.sum
ncu --clock-control none --metrics "$metrics" "$work/zero_copy" > "$out/zero_copy_ncu.txt" 2>&1
ncu --clock-control none --metrics "$metrics" "$work/zero_copy_stream" > "$out/zero_copy_stream_ncu.txt" 2>&1
