#!/bin/bash
# llm.c attention_forward kernels 2 and 1, whole programs at default sizes, race checks on
# (the content memo needs them), 2 simulator threads each (this VM's cores).
cd "$(dirname "$0")"
mkdir -p "$OUT/logs"
export OUT_TOP=$OUT
OUT=$OUT/logs SIMT_RACES=1 SIMT_THREADS=2 JOBS=2 LIMIT=570 bash run_llmc_default_sizes.sh "attention_forward 2" "attention_forward 1" > "$OUT_TOP/summary.txt" 2>&1
tar -czf "$OUT_TOP/s10.tgz" -C "$OUT_TOP" logs summary.txt
