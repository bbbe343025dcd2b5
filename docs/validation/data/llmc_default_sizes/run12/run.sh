#!/bin/bash
# llm.c's cuBLAS files (and matmul_forward's naive kernel 1), whole programs at their
# default sizes on the H200 machine's 16 CPUs: five at once, 3 simulator threads each,
# race checks off. Prepared here (programs built by simt cc, libraries stripped of
# debug info to travel):
#   bash tests/cuda/run_llmc_default_sizes.sh prepare SRC llmc_run matmul_forward matmul_backward attention_backward
#   strip --strip-debug llmc_run/lib/libsimt_*.so llmc_run/matmul_* llmc_run/attention_backward
mkdir -p $OUT/logs && cd llmc_run && JOBS=5 SIMT_OPTIONS=threads=3 LIMIT=540 OUT=$OUT/logs timeout 580 \
  bash run_llmc_default_sizes.sh "matmul_forward 1" "matmul_forward 2" "matmul_forward 3" "matmul_backward 1" \
  "attention_backward 1" > $OUT/summary.txt 2>&1
tar -czf $OUT/logs.tgz -C $OUT logs summary.txt
