#!/usr/bin/env bash
# Where nvcc exists (CI, no GPU needed): the course kernels (kernels/*.cu, plain
# CUDA built by simtlab through clang and its pass), every examples/*.cu ported by
# `simt port` (the dialect promise that the ported text is CUDA) and the ctypes
# backend must compile with nvcc. usage: nvcc_compile_ported.sh SIMT NVCC
set -euo pipefail
cd "$(dirname "$0")/../.."
simt=$1
nvcc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++20 --fmad=false -arch=sm_90 -I. -c)
for src in kernels/*.cu; do
  "$nvcc" "${flags[@]}" "$src" -o "$work/$(basename "$src" .cu).o"
  echo "ok   $src compiles with nvcc"
done
for src in examples/*.cu; do
  name=$(basename "$src" .cu)
  "$simt" port "$src" -o "$work/$name.cu" 2> /dev/null
  "$nvcc" "${flags[@]}" "$work/$name.cu" -o "$work/$name.o"
  echo "ok   $src (ported) compiles with nvcc"
done
"$nvcc" "${flags[@]}" -Xcompiler -fPIC examples/minitorch/minitorch_backend.cu -o "$work/minitorch_backend.o"
echo "ok   examples/minitorch/minitorch_backend.cu compiles with nvcc"
