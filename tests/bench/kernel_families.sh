#!/bin/sh
# How long each course-kernel family takes through `simt run` at its defaults on this
# machine: every version of the family, one after another, as a learner or a
# `simt table` would run them (the issue's target: 10 s a family on a 2-core laptop).
# A benchmark that prints figures, not a timed test.
#   usage: tests/bench/kernel_families.sh [SIMT]   (default ./build/cli/simt)
simt=${1:-./build/cli/simt}
family() {  # family NAME KERNEL...
  name=$1; shift
  start=$(date +%s.%N)
  failed=""
  for k in "$@"; do "$simt" run "$k" > /dev/null 2>&1 || failed="$failed $k"; done
  end=$(date +%s.%N)
  printf '%-22s %3d versions %7.1f s%s\n' "$name" "$#" "$(echo "$end - $start" | bc)" "${failed:+  FAILED:$failed}"
}
printf '%-22s %12s %9s\n' "family" "" "wall"
family softmax softmax_naive softmax_online softmax_warp_per_row softmax_block_per_row \
  softmax_lightseq softmax_backward_naive softmax_backward_warp_per_row softmax_backward_lightseq
family layernorm layernorm_two_pass layernorm_welford layernorm_fused layernorm_vectorized \
  layernorm_half2 layernorm_backward_naive layernorm_backward_fused
family fused-elementwise bias_gelu_separate bias_gelu_fused bias_dropout_residual_separate \
  bias_dropout_residual_fused
family gemm matmul_naive matmul_coalesced matmul_tiled matmul_blocktile_1d matmul_blocktile_2d \
  matmul_vectorized matmul_warptile matmul_wmma
family attention attention_naive attention_flash attention_flash_wmma attention_naive_backward \
  attention_flash_backward
family quantized-gemv gemv_fp16 gemv_int8 gemv_int4 gemv_fp8
family decode decode_contiguous decode_paged decode_gqa decode_fp8_kv rope
family moe-router moe_router_atomic moe_router_block_scan moe_router_cub
