#!/usr/bin/env bash
# The simulated clock against a GPU (docs/validation/h200-clock.md): what
# cudaEventElapsedTime says on the real device for simtlab's clock programs
# (tests/cuda/clock_copies.cu, tests/frontend/clock_streams.cu) and for the
# benchmarks of llm.c dev/cuda files, built with llm.c's own flags.
# Usage, on the GPU machine, from the repository root:
#   bash tests/cuda/run_clock_gpu.sh [LLMC_DEV_CUDA_DIR]
# Results go to $OUT (default /tmp/out).
set -uo pipefail
out=${OUT:-/tmp/out}
llmc=${1:-.gpu-run/llmc}
mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version,pcie.link.gen.current,pcie.link.width.current \
  --format=csv > "$out/gpu.txt" 2>&1
files="adamw permute encoder_backward crossentropy_forward crossentropy_softmax_backward"
nvcc -O3 -arch=sm_90 -o /tmp/clock_copies tests/cuda/clock_copies.cu > "$out/build.txt" 2>&1 &
nvcc -O3 -arch=sm_90 -o /tmp/clock_streams tests/frontend/clock_streams.cu >> "$out/build.txt" 2>&1 &
if [ -d "$llmc" ]; then
  for f in $files; do
    nvcc -O3 --use_fast_math -arch=sm_90 -o /tmp/llmc_$f "$llmc/$f.cu" -lcublas -lcublasLt > "$out/build_$f.txt" 2>&1 &
  done
fi
wait
/tmp/clock_copies > "$out/clock_copies.txt" 2>&1
/tmp/clock_streams > "$out/clock_streams.txt" 2>&1
if [ -d "$llmc" ]; then
  for f in $files; do
    (cd "$llmc" && timeout 120 /tmp/llmc_$f > "$out/llmc_$f.txt" 2>&1; echo "exit $?" >> "$out/llmc_$f.txt")
  done
fi
cat "$out/gpu.txt" "$out/clock_copies.txt" "$out/clock_streams.txt"
grep -h "time\|exit" "$out"/llmc_*.txt
