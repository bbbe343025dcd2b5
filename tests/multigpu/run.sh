#!/bin/sh
# Several simulated GPUs end to end: tests/multigpu/nccl_collectives.cu on 2, 3 and 8
# GPUs passes every check, and its 2-rank float all-reduce hashes as on two H200s
# (docs/validation/data/nccl_h200x2_allreduce.txt); NCCL_ALGO=Tree all-reduces in NCCL's
# tree order on 3, 4 and 8 GPUs; four host threads launch at once
# and each gets its own result; a new thread's clock starts at its creator's; host threads driving different GPUs, whose blocks run
# at the same time, give the outputs, launches, counters, simulated times and race
# report of one launch at a time, run after run, and so do the launches one host thread
# makes round-robin over the GPUs; a program that waits on a rank
# its own thread drives is refused, not hung. Usage: run.sh SIMT
set -e
simt=$1
here=$(cd "$(dirname "$0")" && pwd)
want=$(awk '$1 == "RESULT" && $2 == "allreduce_sum_rank0" { print $3 }' "$here/../../docs/validation/data/nccl_h200x2_allreduce.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
for gpus in 2 3 8; do
  "$simt" exec --gpus "$gpus" "$here/nccl_collectives.cu" --timeline trace.json > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
  grep -q "^PASS: 0 checks failed" out.txt || { cat out.txt; exit 1; }
  got=$(awk '$1 == "RESULT" && $2 == "allreduce_sum_rank1" { print $3 }' out.txt)
  [ "$got" = "$want" ] || { echo "--gpus $gpus: all-reduce hash $got, the H200s' $want"; exit 1; }
  echo "--gpus $gpus: every check passed, hash $got as on two H200s"
done
grep -q "GPU 7   stream" err.txt || { echo "no terminal timeline of 8 GPUs"; cat err.txt; exit 1; }
/usr/bin/python3 "$here/../../plots/timeline.py" trace.json -o trace.png > /dev/null
[ -s trace.png ] || { echo "plots/timeline.py wrote nothing"; exit 1; }
echo "the 8-GPU timeline: in the terminal and as a Gantt chart"
for layout in "3 1" "4 4" "8 2"; do  # GPUs, nodes: a chain, 4 one-GPU nodes, 2 nodes of 4
  set -- $layout
  for algo in Tree Ring; do
    NCCL_ALGO=$algo "$simt" exec --gpus "$1" --nodes "$2" "$here/nccl_tree.cu" -- "$2" > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
    grep -qx PASS out.txt || { cat out.txt; exit 1; }
  done
  echo "--gpus $1 --nodes $2: NCCL_ALGO=Tree adds in the double binary tree's order, the default in the ring's"
done
"$simt" exec --gpus 2 "$here/ungrouped_deadlock.cu" > out.txt 2> err.txt || true
grep -q "which this host thread also drives" err.txt || { cat out.txt err.txt; exit 1; }
grep -q "^refused: invalid usage" out.txt || { cat out.txt err.txt; exit 1; }
echo "an ungrouped call for two ranks from one thread: refused with its reason"
for run in 1 2 3; do
  "$simt" exec "$here/host_threads.cu" > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
done
echo "four host threads launching at once: right results, 3 runs of 3"
"$simt" exec "$here/thread_clock.cu" > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
grep -q "^PASS" out.txt || { cat out.txt; exit 1; }
echo "a new host thread's clock starts at its creator's; a join waits for the joined thread's"
"$simt" exec --gpus 2 "$here/peer_access.cu" > out.txt 2> err.txt && { echo "peer_access.cu exited 0 after a fault"; exit 1; }
grep -q "^PASS" out.txt || { cat out.txt err.txt; exit 1; }
grep -q "in allocation #1 (4096 bytes at 0x[0-9a-f]*), which is GPU 1's memory: this kernel runs on GPU 0, which has not enabled peer access to GPU 1" err.txt \
  || { echo "no diagnostic naming the owner and peer access"; cat err.txt; exit 1; }
grep -q "in kernel copy, block (0,0,0), thread (0,0,0), at .*peer_access.cu:13" err.txt || { echo "the fault names no kernel, thread and line"; cat err.txt; exit 1; }
grep -q "GPU 1 -> GPU 0  4096 bytes" err.txt || { echo "the peer reads are not on the link"; cat err.txt; exit 1; }
echo "another GPU's memory: read with peer access (4096 bytes over the link), an illegal address without, managed memory from both"
for n in 1 2 3; do  # one launch at a time, then the GPUs at once twice
  SIMT_OPTIONS="concurrent_gpus=$((n > 1))" "$simt" exec --gpus 4 --json="$work/launches$n.json" \
    "$here/threads_per_gpu.cu" -- --race > out$n.txt 2> err$n.txt && { echo "the planted race failed no launch"; cat err$n.txt; exit 1; }
  [ "$(grep -c " right$" out$n.txt)" = 4 ] || { cat out$n.txt err$n.txt; exit 1; }
  grep -q "global-memory race in kernel racy" err$n.txt || { echo "run $n: no race report"; cat err$n.txt; exit 1; }
done
cmp out1.txt out2.txt && cmp out1.txt out3.txt || { echo "outputs differ between runs"; cat out1.txt out2.txt out3.txt; exit 1; }
/usr/bin/python3 "$here/same_launches.py" "$work/launches1.json" "$work/launches2.json" "$work/launches3.json"
echo "four GPUs driven at once: outputs, counters, times and the race report as one at a time"
"$simt" exec --gpus 4 "$here/../bench/gpus_at_once.cu" -- --launches 2 --iters 200 > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
grep -q "^PASS: outputs equal every way" out.txt || { cat out.txt; exit 1; }
echo "tests/bench/gpus_at_once.cu: the same bits issued one GPU after another, from a thread per GPU and round-robin"
for n in 1 2; do  # one host thread round-robin over 3 GPUs: one launch at a time, then its batches at once
  SIMT_OPTIONS="concurrent_gpus=$((n - 1))" "$simt" exec --gpus 3 --json="$work/batch$n.json" "$here/launch_batch.cu" \
    > out.txt 2> err.txt || true  # exits 1: the refused launch is an error of the run
  grep -qx PASS out.txt || { cat out.txt err.txt; exit 1; }
  grep -q "^\[launch 10\] (GPU 2) kernel step  grid (1,1,1)  block (1025,1,1)" err.txt || { echo "the refused launch is not GPU 2's"; cat err.txt; exit 1; }
  SIMT_OPTIONS="concurrent_gpus=$((n - 1))" "$simt" exec --gpus 3 "$here/launch_batch.cu" -- --fault > out.txt 2> err.txt || true
  grep -qx PASS out.txt || { cat out.txt err.txt; exit 1; }
done
/usr/bin/python3 "$here/same_launches.py" "$work/batch1.json" "$work/batch2.json"
echo "one host thread round-robin over 3 GPUs: its launches run at once, with the results, errors, counters and times of one at a time"
