#!/usr/bin/env bash
# On a machine with an H200, nvcc 13 and Nsight Compute: records the outputs of every
# course kernel (as tests/cuda/run_kernel_outputs_gpu.sh does) and measures
# kernels/matmul_wmma.cu's launches with ncu (counters, tensor instructions, time) and
# its SASS (docs/validation/h200-tensor-cores.md). Usage: run_matmul_wmma_gpu.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: run_matmul_wmma_gpu.sh OUTDIR}
work=$(mktemp -d)
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
for s in kernels/*.cu tests/cuda/kernel_outputs_main.cu kernels/harness.cpp util/*.cpp; do echo "$s"; done |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -lineinfo -x cu -c {} -o $work/\$(echo {} | tr / _).o" 2> "$work/nvcc.txt"
nvcc $flags -o "$work/kernel_outputs" "$work"/*.o 2>> "$work/nvcc.txt"
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -1)"
  "$work/kernel_outputs"
} > "$work/kernel_outputs_h200.txt" 2>&1
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_ldsm.sum,sm__inst_executed_pipe_tensor.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,gpu__time_duration.sum
ncu --clock-control none --csv -k regex:matmul_wmma --metrics "$metrics" "$work/kernel_outputs" > "$work/ncu_matmul_wmma.csv" 2>&1
cuobjdump --dump-sass -fun matmul_wmma "$work/kernel_outputs" > "$work/matmul_wmma.sass" 2>&1 || cuobjdump --dump-sass "$work/kernel_outputs" | awk '/Function : .*matmul_wmma/{p=1} /Function : /&&!/matmul_wmma/{p=0} p' > "$work/matmul_wmma.sass"
rm -f "$work"/*.o "$work/kernel_outputs"
tar -czf "$out/matmul_wmma_h200.tar.gz" -C "$work" .
grep -E "matmul_wmma|^#" "$work/kernel_outputs_h200.txt"
