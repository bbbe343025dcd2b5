#!/bin/bash
# The GPU's own answer for llm.c kernels the simulator stops on or fails: nvcc builds
# (llm.c's Makefile flags) of layernorm_backward and matmul_backward_bias, their runs,
# compute-sanitizer on the suspicious ones, and two probes of ours: double division's
# SASS sequence and what a shuffle returns from a lane that is not there.
#   usage (on a machine with a GPU): run_llmc_nvcc_gpu.sh LLMC_DEV_CUDA_DIR OUTDIR
# Results: docs/validation/data/llmc_default_sizes/h200_gpu/, docs/validation/llmc-default-sizes.md.
set -u
src=$1 O=$2; here=$(cd "$(dirname "$0")" && pwd); mkdir -p "$O"
work=$(mktemp -d); cp "$src"/common.h "$src"/layernorm_backward.cu "$src"/matmul_backward_bias.cu "$work"/
nvidia-smi -L > "$O"/smi.txt 2>&1; nvcc --version | tail -2 >> "$O"/smi.txt
cd "$work"
nvcc -O2 --fmad=false -arch=sm_90 -o ddiv "$here"/ddiv_sequences.cu &&
  ncu --clock-control none --csv --print-units base --metrics smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum,smsp__inst_executed_pipe_xu.sum ./ddiv > "$O"/ddiv_ncu.csv 2>&1
nvcc -arch=sm_90 -O3 -o shfl "$here"/shfl_absent_lanes.cu && ./shfl > "$O"/shfl_exited.txt 2>&1
for f in layernorm_backward matmul_backward_bias; do
  nvcc -O3 --use_fast_math -arch=sm_90 -lineinfo -lcublas -lcublasLt -std=c++17 $f.cu -o $f || exit 1
done
run() { local log=$O/$1; shift; timeout "$@" > "$log" 2>&1; echo "exit $?" >> "$log"; }
for k in 3 4 5 8 10; do run layernorm_backward_k$k.txt 60 ./layernorm_backward $k; done
for k in 8 9; do run matmul_backward_bias_k$k.txt 60 ./matmul_backward_bias $k; done
# The validation is what matters; the benchmarks after it are cut by the timeout.
run memcheck_lb10.txt 100 compute-sanitizer --tool memcheck --print-limit 20 ./layernorm_backward 10
run memcheck_lb8.txt 90 compute-sanitizer --tool memcheck --print-limit 20 ./layernorm_backward 8
run racecheck_lb8.txt 60 compute-sanitizer --tool racecheck --print-limit 20 ./layernorm_backward 8
run synccheck_mbb8.txt 90 compute-sanitizer --tool synccheck --print-limit 20 ./matmul_backward_bias 8
