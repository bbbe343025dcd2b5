#!/usr/bin/env bash
# Where nvcc exists (CI, no GPU needed): every CUDA file simtlab ships as plain CUDA
# must compile with nvcc unchanged, the same text simtlab builds through clang and
# its pass: the course kernels, the examples and the ctypes backend, and the GPU
# sides of the pattern validation and the time model's calibration.
# usage: nvcc_compile.sh NVCC
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c++20 --fmad=false -arch=sm_90 -I. -c)
for src in kernels/*.cu examples/*.cu tests/cuda/patterns_main.cu tests/cuda/time_micro_main.cu tests/cuda/wmma_probe.cu tests/cuda/fp8_conversions.cu; do
  "$nvcc" "${flags[@]}" "$src" -o "$work/$(basename "$src" .cu).o"
  echo "ok   $src compiles with nvcc"
done
# The labs: each starter and solution with its lab's harness (labs/README.md).
for lab in labs/[0-9]*/; do
  for src in $(python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['starter'], c['solution']) if c.get('kind','kernel')!='answers' else None" "$lab/checks.json"); do
    "$nvcc" "${flags[@]}" -Xcompiler -fPIC -I labs/common -I "$lab" "$lab/$src" -o "$work/lab.o"
    echo "ok   $lab$src compiles with nvcc"
  done
done
"$nvcc" "${flags[@]}" -Xcompiler -fPIC examples/minitorch/minitorch_backend.cu -o "$work/minitorch_backend.o"
echo "ok   examples/minitorch/minitorch_backend.cu compiles with nvcc"
# The front-end programs that reproduce what NVIDIA's CUDA samples needed
# (tests/frontend/test_samples_patterns.cpp; run on the H200 by cuda_samples_h200.sh).
for src in tests/frontend/{header_guards,int_mul_hi,cg_scan,device_attributes,cg_shfl_vector,cg_multi_warp_tile,shfl_outside_mask,uninitialized_shared_option}.cu; do
  "$nvcc" "${flags[@]}" "$src" -o "$work/$(basename "$src" .cu).o"
  echo "ok   $src compiles with nvcc"
done
