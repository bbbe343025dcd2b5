#!/bin/bash
# Every llm.c dev/cuda file without cuBLAS, its default kernel, whole program (validation
# and benchmark) at its default size; 2 simulator threads each (this VM's cores), nine
# at once on the H200 machine's 16 CPUs; race checks off (SIMT_RACES=0, the script's default).
cd "$(dirname "$0")"
mkdir -p "$OUT/logs"
export OUT_TOP=$OUT
OUT=$OUT/logs SIMT_THREADS=2 JOBS=9 LIMIT=540 timeout 585 bash run_llmc_default_sizes.sh \
  "softmax_forward 1" "classifier_fused 1" "crossentropy_softmax_backward 1" "trimat_forward 1" \
  "layernorm_backward 2" "layernorm_forward 2" "matmul_backward_bias 1" "fused_residual_forward 1" \
  "encoder_backward 1" "encoder_forward 2" "gelu_backward 1" "gelu_forward 1" "global_norm 1" \
  "residual_forward 1" "adamw 1" "crossentropy_forward 1" "permute 1" "attention_forward 2" > "$OUT_TOP/summary.txt" 2>&1
tar -czf "$OUT_TOP/s12.tgz" -C "$OUT_TOP" logs summary.txt
