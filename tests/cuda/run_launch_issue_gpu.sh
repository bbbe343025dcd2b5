#!/usr/bin/env bash
# The host's issue cost of launches, async copies, memsets and event records on a GPU
# (docs/validation/h200-launch-issue.md): builds tests/cuda/launch_issue_probe.cu with
# nvcc and runs it twice. Usage, on the GPU machine, from the repository root:
#   bash tests/cuda/run_launch_issue_gpu.sh
# Results go to $OUT (default /tmp/out).
set -uo pipefail
out=${OUT:-/tmp/out}
mkdir -p "$out"
{
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
  lscpu | grep -E "Model name|^CPU\(s\)|MHz"
  nvcc --version | tail -2
} > "$out/machine.txt" 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/launch_issue_probe tests/cuda/launch_issue_probe.cu > "$out/build.txt" 2>&1
for run in 1 2; do
  echo "run $run" >> "$out/launch_issue_h200.txt"
  timeout 50 /tmp/launch_issue_probe >> "$out/launch_issue_h200.txt" 2>&1
done
cat "$out/machine.txt" "$out/build.txt" "$out/launch_issue_h200.txt"
