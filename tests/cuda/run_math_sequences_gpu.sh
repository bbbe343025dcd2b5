#!/usr/bin/env bash
# Counted instructions per call of CUDA's math functions on the GPU (one device run).
#   usage: run_math_sequences_gpu.sh OUTDIR      writes OUTDIR/math_sequences.csv, ..._xu.csv
set -uo pipefail
out=${1:-${OUT:-/tmp/out}}; mkdir -p "$out"
nvcc -O2 --fmad=false -arch=sm_90 -lineinfo -o /tmp/math_sequences tests/cuda/math_sequences_main.cu > "$out/math_build.txt" 2>&1
ncu --clock-control none --csv --print-units base --metrics \
  smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__thread_inst_executed.sum,smsp__inst_executed.sum \
  /tmp/math_sequences > "$out/math_sequences.csv" 2>&1
# The MUFU (XU pipe) count separately: a metric this GPU lacks must not lose the rest.
ncu --clock-control none --csv --print-units base --metrics smsp__inst_executed_pipe_xu.sum \
  /tmp/math_sequences > "$out/math_sequences_xu.csv" 2>&1
cuobjdump -sass /tmp/math_sequences > "$out/math_sequences.sass" 2>&1
gzip -f "$out/math_sequences.sass"
