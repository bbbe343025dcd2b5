#!/usr/bin/env bash
# On a machine with an H200, nvcc 13 and Nsight Compute: builds tests/cuda/wmma_probe.cu,
# records the wmma tiles' outputs and fragment layouts, measures the count_* kernels
# with ncu and dumps their SASS (docs/validation/h200-tensor-cores.md).
# Usage: bash tests/cuda/run_wmma_gpu.sh OUTDIR   (writes OUTDIR/wmma_h200.tar.gz)
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: run_wmma_gpu.sh OUTDIR}
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/gpu.txt"
nvcc --version | tail -1 >> "$work/gpu.txt"
ncu --version | tail -1 >> "$work/gpu.txt"
nvcc -std=c++20 -arch=sm_90 --fmad=false -lineinfo -I. -o /tmp/wmma_probe tests/cuda/wmma_probe.cu 2> "$work/nvcc.txt"
start=$(date +%s)
/tmp/wmma_probe "$work" > "$work/probe_stdout.txt" 2>&1
echo "probe: $(( $(date +%s) - start )) s" >> "$work/probe_stdout.txt"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__inst_executed.sum
ncu --clock-control none --csv -k regex:count_ --metrics "$metrics" /tmp/wmma_probe "$work" count > "$work/ncu_wmma.csv" 2>&1
ncu --clock-control none --csv -k regex:count_ --metrics "regex:.*inst_executed.*(tensor|mma|ldsm).*" /tmp/wmma_probe "$work" count > "$work/ncu_wmma_tensor.csv" 2>&1
ncu --query-metrics 2>&1 | grep -i -E "tensor|mma|ldsm" > "$work/ncu_tensor_metric_names.txt"
cuobjdump --dump-sass /tmp/wmma_probe > "$work/wmma_probe.sass"
tar -czf "$out/wmma_h200.tar.gz" -C "$work" .
ls -la "$work"
