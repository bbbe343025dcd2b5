#!/bin/bash
# attention_forward kernel 1 (validation only, benchmark cut) exact on 10 threads and
# sampled on 2, and softmax_forward kernel 3 sampled on 4, at once; JSON of every launch.
cd "$(dirname "$0")"
L=$PWD/lib
mkdir -p $OUT/r
go() {  # name program env...
  local name=$1 prog=$2; shift 2
  local t0=$(date +%s)
  env "$@" SIMT_RACES=0 SIMT_REPORT=none SIMT_REPORT_JSON=$OUT/r/$name.json _STDBUF_O=L timeout 570 \
    $L/ld-linux-x86-64.so.2 --library-path $L --preload $L/libstdbuf.so ./$prog > $OUT/r/$name.log 2>&1
  echo "exit $? after $(( $(date +%s) - t0 ))s" >> $OUT/r/$name.log
}
go attention_exact "attention_validate 1" SIMT_EXACT=1 SIMT_THREADS=10 &
go attention_sampled "attention_validate 1" SIMT_THREADS=2 &
go softmax3_sampled "softmax_validate 3" SIMT_THREADS=4 &
wait
cd $OUT && tar czf r.tgz r && rm -rf r
echo done
