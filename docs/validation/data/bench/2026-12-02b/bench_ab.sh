#!/bin/bash
# simt bench, the issue-time build (147a1bf: git archive + cmake --build --target simt in /tmp/old147)
# and this tree (d628b02), interleaved; R=10 launches each (best of), N=3 rounds, run twice (files 1-3, 4-6)
for i in $(seq ${N:-4}); do for v in old new; do
  b=$OLD; [ $v = new ] && b=$NEW
  $b bench --repeats ${R:-3} > /tmp/bab/bench_${v}_$i.txt 2>&1
  echo "$v $i $(awk '/^matmul/{m="mm"} /^vector_add/{m="va"} /counted \+ sanitizers|counted, no race/ {printf "%s:%s ", m, $(NF-2)}' /tmp/bab/bench_${v}_$i.txt)"
done; done
