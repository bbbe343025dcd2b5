#!/usr/bin/env bash
# The H200 half of docs/course-hw4.md, in one device run: the nvcc build of
# FILLED/src/hw4_driver.cu (made beforehand by fill_hw4.sh: the course's repository is
# not on the GPU machine), its output, launch digests and ncu counters
# (program/validate_gpu.sh). Compare here with
#   simt validate SIM_COPY/src/hw4_driver.cu --gpu-results DIR/hw4
# where SIM_COPY is another fill_hw4.sh copy (docs/course-hw4.md).
#
#   usage: gpu_hw4.sh FILLED OUT      (writes OUT/hw4_gpu.tgz)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
filled=$(cd "${1:?usage: gpu_hw4.sh FILLED OUT}" && pwd)
out=${2:?usage: gpu_hw4.sh FILLED OUT}
work=$(mktemp -d)
cd "$root"
# The launches of the shared-memory and FP metrics too: the bank conflicts of the
# dgamma/dbetta buffer and the float4 requests are what docs/course-hw4.md discusses.
export SIMT_VALIDATE_METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
start=$(date +%s)
timeout 150 bash program/validate_gpu.sh "$work/hw4" "$filled/src/hw4_driver.cu" \
  > "$work/validate_gpu.log" 2>&1
echo "validate_gpu.sh status $? after $(( $(date +%s) - start )) s" | tee -a "$work/validate_gpu.log"
rm -f "$work"/hw4/gpu_prog "$work"/hw4/gpu_launch_digest.so
mkdir -p "$out"
tar -czf "$out/hw4_gpu.tgz" -C "$work" .
