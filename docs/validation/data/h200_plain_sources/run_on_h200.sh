#!/usr/bin/env bash
# The GPU side of docs/validation/h200-plain-sources.md, run on the H200 machine from a
# copy of the tree with the simulator side (tests/cuda/validate.sh sim valrun) beside it.
set -u
export PATH=$PATH:/usr/local/cuda/bin
(timeout 330 bash tests/cuda/validate.sh gpu valrun > $OUT/validate_gpu.log 2>&1; echo "rc $?" >> $OUT/validate_gpu.log)
cp docs/validation/h200.md $OUT/h200.md
(timeout 120 bash tests/cuda/run_patterns_gpu.sh $OUT/patterns > $OUT/patterns.log 2>&1; echo "rc $?" >> $OUT/patterns.log)
(timeout 100 bash tests/cuda/run_time_micro_gpu.sh $OUT/time_micro > $OUT/time_micro.log 2>&1; echo "rc $?" >> $OUT/time_micro.log)
tar czf $OUT/gpu.tgz valrun/gpu/stdout.txt valrun/gpu/ncu.csv valrun/gpu/gpu.txt valrun/gpu/examples/*.stdout \
    valrun/gpu/examples/*.ncu.csv
