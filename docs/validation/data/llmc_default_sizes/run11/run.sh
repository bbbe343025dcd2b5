#!/bin/bash
# llm.c dev/cuda files, unchanged, whole programs at their default sizes, one after
# another on the 2-core development VM (while a CI build ran beside them), with the tree
# after the front end's removal and the re-layering. Run in llm.c's dev/cuda; logs in LOGS.
LOGS=${LOGS:-/tmp/llmc_logs}; SIMT=${SIMT:-simt}
for f in "adamw 1" "permute 1" "residual_forward 1" "gelu_forward 1" "layernorm_backward 2" "encoder_backward 1" \
         "crossentropy_forward 1" "matmul_backward_bias 1" "fused_residual_forward 1" "global_norm 1" \
         "encoder_forward 2" "trimat_forward 1" "gelu_backward 1"; do
  set -- $f; t0=$(date +%s)
  SIMT_OPTIONS="races=off threads=2" timeout 400 $SIMT exec $1.cu -- $2 > $LOGS/$1_k$2.log 2>&1
  echo "$1 $2 exit $? after $(( $(date +%s) - t0 ))s; $(grep -c "All results match" $LOGS/$1_k$2.log) match lines" >> $LOGS/summary.txt
done
