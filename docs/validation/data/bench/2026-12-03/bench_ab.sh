#!/bin/bash
# simt bench, fd5ab04 (OLD: its build's simt) and this tree (NEW), interleaved, best of 5
# launches each; rounds 1-6 old first, rounds 7-12 new first. Then: python3 summarize.py DIR
for i in 1 2 3 4 5 6; do for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; $b bench --repeats 5 > bench_${v}_$i.txt 2>&1; done; done
for i in 7 8 9 10 11 12; do for v in new old; do b=$OLD; [ $v = new ] && b=$NEW; $b bench --repeats 5 > bench_${v}_$i.txt 2>&1; done; done
