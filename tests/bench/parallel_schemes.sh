#!/bin/sh
# How long the parallel-scheme programs take on this machine at their defaults on
# 8 simulated GPUs over 2 nodes (and DDP on 4 GPUs, and as 4 and 8 processes with
# --ranks), and what they report: the
# wall time of `simt exec` (build cached), the self-check, and the simulated time per
# step. A benchmark that prints figures, not a timed test.
#   usage: tests/bench/parallel_schemes.sh [SIMT]   (default ./build/cli/simt)
simt=${1:-./build/cli/simt}
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-34s %8s %8s  %s\n' "program" "wall s" "result" "last step (simulated ms/step)"
run() {
  name=$1; shift
  "$simt" exec "$@" > /dev/null 2>&1 || true  # build once: the figure is the run
  start=$(date +%s.%N)
  "$simt" exec "$@" > "$work/out.txt" 2> "$work/err.txt"
  status=$?
  end=$(date +%s.%N)
  result=$(grep -E "^(PASS|FAIL)" "$work/out.txt" | tail -1 | cut -c1-4)
  [ -n "$result" ] || result="exit $status"
  step=$(awk '$1 ~ /^[0-9]+$/ && NF >= 4 { last = $0 } END { print last }' "$work/out.txt")
  printf '%-34s %8.1f %8s  %s\n' "$name" "$(echo "$end - $start" | bc)" "$result" "$step"
}
k=$here/kernels/parallel
run "ddp 8 GPUs / 2 nodes"            --gpus 8 --nodes 2 "$k/ddp.cu"
run "ddp 4 GPUs"                      --gpus 4 "$k/ddp.cu"
command -v mpirun > /dev/null && run "ddp 4 ranks (one process each)" --ranks 4 "$k/ddp.cu"
command -v mpirun > /dev/null && run "ddp 8 ranks / 2 nodes"  --ranks 8 --nodes 2 "$k/ddp.cu"
run "pipeline gpipe 8 GPUs / 2 nodes" --gpus 8 --nodes 2 "$k/pipeline.cu" -- --schedule gpipe
run "pipeline 1f1b 8 GPUs / 2 nodes"  --gpus 8 --nodes 2 "$k/pipeline.cu" -- --schedule 1f1b
run "tensor parallel 8 GPUs / 2 nodes" --gpus 8 --nodes 2 "$k/tensor_parallel.cu" -- --heads 8
run "zero-3 8 GPUs / 2 nodes"         --gpus 8 --nodes 2 "$k/zero.cu" -- --stage 3
run "moe 8 GPUs / 2 nodes"            --gpus 8 --nodes 2 "$k/moe.cu" -- --experts 8
