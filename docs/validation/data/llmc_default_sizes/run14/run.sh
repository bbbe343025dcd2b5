#!/bin/bash
# run14 (2026-12-05): on the device machine's 16 CPUs (an H100 host this time; the
# simulator runs on the CPUs, the GPU is idle), two llm.c files at once, each with 16
# simulator threads, 570 s each at most. DIR was prepared here with
#   bash tests/cuda/run_llmc_default_sizes.sh prepare LLMC/dev/cuda build/llmc_run matmul_forward attention_backward
L=/tmp/llmc; mkdir -p $L; nproc > $L/machine.txt; nvidia-smi --query-gpu=name --format=csv >> $L/machine.txt
(cd build/llmc_run && JOBS=1 SIMT_OPTIONS=threads=16 LIMIT=570 OUT=$L bash run_llmc_default_sizes.sh "matmul_forward 1") > $L/mf.out 2>&1 &
(cd build/llmc_run && JOBS=1 SIMT_OPTIONS=threads=16 LIMIT=570 OUT=$L bash run_llmc_default_sizes.sh "attention_backward 1") > $L/ab.out 2>&1 &
wait
