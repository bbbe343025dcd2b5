#!/bin/bash
# llm.c's matmul_forward kernel 1 (naive), whole program at its default size, on the
# 2-core development machine (2026-12-05): built by `simt cc` as in run12
#   bash tests/cuda/run_llmc_default_sizes.sh prepare SRC llmc_run matmul_forward
# then run here, two simulator threads, race checks off, timed by /usr/bin/time:
cd llmc_run
SIMT_OPTIONS="races=off threads=2" stdbuf -oL /usr/bin/time -v ./matmul_forward 1 2>&1 |
  while IFS= read -r l; do echo "$SECONDS $l"; done | grep -v "still running" > matmul_forward_k1_local_2core.log
