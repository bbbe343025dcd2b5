#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: run the atomics probe
# (tests/cuda/atomics_probe.cu) and measure every launch with ncu, in three metric
# groups (the RED/ATOM counters, the instruction and shared counters, the L2's), each
# its own pass so that a metric this ncu lacks costs only its group. Writes into DIR:
#   gpu_stdout.txt (the launch labels), ncu_atomics_{l1,inst,lts}.csv, atomics.sass,
#   ncu_metric_names.txt (this ncu's atom/red metric names), gpu.txt
# Report: python3 tests/cuda/atomics_report.py (docs/validation/h200-atomics.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
mkdir -p "$out"
nvcc -std=c++20 --fmad=false -arch=sm_90 -lineinfo -o /tmp/atomics_gpu tests/cuda/atomics_probe.cu || exit 1
/tmp/atomics_gpu > "$out/gpu_stdout.txt"
cuobjdump --dump-sass /tmp/atomics_gpu > "$out/atomics.sass"
l1="gpu__time_duration.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"
l1+=",l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
l1+=",l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
l1+=",l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
inst="smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum"
inst+=",smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"
inst+=",l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__inst_executed.sum"
lts="lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum"
lts_sectors="lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum"
ncu --query-metrics --chip gh100 2>&1 | grep -Ei '_op_(atom|red)|atom|red_' > "$out/ncu_metric_names.txt"
for group in l1 inst lts; do
  ncu --clock-control none --csv --metrics "${!group}" /tmp/atomics_gpu > "$out/ncu_atomics_$group.csv" 2> "$out/ncu_atomics_$group.err"
  echo "ncu $group: rc $?"
done
# This ncu may not know the L2's request metrics: the sectors alone then.
grep -q lts__t_sectors_op_red "$out/ncu_atomics_lts.csv" ||
  ncu --clock-control none --csv --metrics "$lts_sectors" /tmp/atomics_gpu > "$out/ncu_atomics_lts.csv" 2>> "$out/ncu_atomics_lts.err"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
ncu --version | tail -1 >> "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
