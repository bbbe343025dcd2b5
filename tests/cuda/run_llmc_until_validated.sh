#!/bin/bash
# llm.c dev/cuda programs built by `simt cc` (in DIR, default .), each "file kernel
# [VAR=value]" (e.g. SIMT_OPTIONS=races=off) read from stdin run until its validation ends (the line that starts its
# benchmark), an error, or LIMIT seconds (default 300). One log per job, each line
# with the seconds since its start (as kept in docs/validation/data/llmc_default_sizes/local_2core.tar.xz).
#   printf '%s\n' "layernorm_backward 6" "matmul_backward_bias 2 SIMT_OPTIONS=races=off" |
#     DIR=/tmp/llmc bash tests/cuda/run_llmc_until_validated.sh
cd "${DIR:-.}" || exit 1
export _STDBUF_O=L LD_PRELOAD=/usr/libexec/coreutils/libstdbuf.so
while read -r f k extra; do
  [ -z "$f" ] && continue
  log=${f}_k$k${extra:+_$extra}.log; t0=$(date +%s)
  env $extra ./$f $k > >(while IFS= read -r line; do echo "$(( $(date +%s) - t0 ))s $line"; done > $log) 2>&1 &
  pid=$!
  while kill -0 $pid 2>/dev/null; do
    sleep 2
    if grep -q -E "Starting benchmarks|match for block_size=1024|block_size +[0-9]+ *\|? *time" $log || [ $(( $(date +%s) - t0 )) -gt ${LIMIT:-300} ]; then kill $pid; break; fi
  done
  wait $pid 2>/dev/null; echo "stopped after $(( $(date +%s) - t0 ))s" >> $log
done
