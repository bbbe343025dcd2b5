#!/bin/bash
# Run on the 2-core development VM: OLD = a build of 147a1bf (git archive + cmake --build --target simt),
# NEW = this tree at 34b7664; outputs bench_{old,new}_N.txt, renamed here by commit.
# simt bench, the issue-time build (147a1bf) and this one, interleaved; FP ops/s rows
OLD=/tmp/old147/src/build/cli/simt NEW=/work/main/build/cli/simt
for i in $(seq ${N:-4}); do for v in old new; do
  b=$OLD; [ $v = new ] && b=$NEW
  $b bench --repeats 3 > /tmp/pfx/bench_${v}_$i.txt 2>&1
  echo "$v $i $(awk '/^matmul/{m="mm"} /^vector_add/{m="va"} /counted \+ sanitizers|counted, no race/ {printf "%s:%s ", m, $(NF-2)}' /tmp/pfx/bench_${v}_$i.txt)"
done; done
