#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and nvcc: build every course kernel with nvcc
# (--fmad=false, as the simulator build never contracts) and record the hashes
# of their outputs. Writes DIR/kernel_outputs_h200.txt (default DIR: .).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
build=$(mktemp -d)
mkdir -p "$out"
flags="-std=c++20 --fmad=false -arch=sm_90 -I."
sources=$(ls kernels/*.cu tests/cuda/kernel_outputs_main.cu)
for s in $sources kernels/harness.cpp util/*.cpp; do echo "$s"; done |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $build/\$(echo {} | tr / _).o"
nvcc $flags -o "$build/kernel_outputs" "$build"/*.o
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader); $(nvcc --version | tail -1)"
  "$build/kernel_outputs"
} > "$out/kernel_outputs_h200.txt"
cat "$out/kernel_outputs_h200.txt"
