#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc 13 and Nsight Compute: build
# tests/cuda/halfcg_validate.cu with nvcc, write every output's bits, and measure
# the counting kernels with ncu. Writes into DIR (default .):
#   halfcg_gpu_outputs.tar.gz (one .bin per test), gpu_stdout.txt, ncu_halfcg.csv,
#   halfcg.sass (cuobjdump of the counting kernels), gpu.txt
# Compare with the simulator: tests/cuda/halfcg_compare.py (docs/validation/h200-halfcg.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
mkdir -p "$out" /tmp/halfcg_gpu
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -o /tmp/halfcg_validate tests/cuda/halfcg_validate.cu 2> "$out/nvcc.txt"
/tmp/halfcg_validate /tmp/halfcg_gpu > "$out/gpu_stdout.txt" 2>&1
tar -czf "$out/halfcg_gpu_outputs.tar.gz" -C /tmp/halfcg_gpu .
metrics=smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_thread_inst_executed_op_conversion_pred_on.sum
ncu --clock-control none --csv -k regex:count_ --metrics "$metrics" /tmp/halfcg_validate /tmp/halfcg_gpu counts > "$out/ncu_halfcg.csv" 2>&1
cuobjdump --dump-sass /tmp/halfcg_validate | awk '/Function : .*count_/{p=1} /Function : /&&!/count_/{p=0} p' > "$out/halfcg.sass"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
