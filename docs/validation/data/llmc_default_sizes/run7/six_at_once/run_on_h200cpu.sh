#!/bin/bash
# The six slowest llm.c files of the sampled table, two threads each, six at once, as
# run6's six_at_once (docs/validation/llmc-default-sizes.md), with this build's sampling
# (spread rule, DRAM from every block).
cd "$(dirname "$0")"
mkdir -p $OUT/sim
SIMT_RACES=0 JOBS=6 SIMT_THREADS=2 LIMIT=${LIMIT:-540} OUT=$OUT/sim bash ./run_llmc_default_sizes.sh "classifier_fused 2" "classifier_fused 3" "classifier_fused 4" "classifier_fused 5" "softmax_forward 5" "softmax_forward 6" > $OUT/sim/summary.txt 2>&1
cd $OUT && tar czf results_s9.tgz sim && rm -rf sim
echo all done
