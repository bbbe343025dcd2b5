#!/usr/bin/env bash
# Where nvcc exists (CI, no GPU needed): every CUDA file simtlab ships as plain CUDA
# must compile with nvcc unchanged, the same text simtlab builds through clang and
# its pass: the course kernels, the examples and the ctypes backend, and the GPU
# sides of the pattern validation and the time model's calibration. The compiles run
# in parallel, one per core (nvcc takes seconds to a minute a file: the templated
# kernels are the slow ones).
# usage: nvcc_compile.sh NVCC
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-std=c++20 --fmad=false -arch=sm_90 -I. -c"
jobs=$work/jobs
: > "$jobs"
# One line per compile: the source, then the extra flags.
for src in kernels/*.cu examples/*.cu tests/cuda/patterns_main.cu tests/cuda/time_micro_main.cu tests/cuda/wmma_probe.cu tests/cuda/fp8_conversions.cu; do
  echo "$src" >> "$jobs"
done
# The labs: each starter and solution with its lab's harness (labs/README.md).
for lab in labs/[0-9]*/; do
  for src in $(python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['starter'], c['solution']) if c.get('kind','kernel')!='answers' else None" "$lab/checks.json"); do
    echo "$lab$src -Xcompiler -fPIC -I labs/common -I $lab" >> "$jobs"
  done
done
echo "examples/minitorch/minitorch_backend.cu -Xcompiler -fPIC" >> "$jobs"
echo "tests/multigpu/thread_clock.cu" >> "$jobs"
echo "tests/multigpu/nccl_tree.cu" >> "$jobs"
echo "tests/multigpu/launch_batch.cu" >> "$jobs"
echo "tests/libs/thrust_extended_lambdas.cu --extended-lambda" >> "$jobs"
# The front-end programs that reproduce what NVIDIA's CUDA samples needed
# (tests/frontend/test_samples_patterns.cpp; run on the H200 by cuda_samples_h200.sh).
for src in tests/frontend/{header_guards,int_mul_hi,cg_scan,device_attributes,cg_shfl_vector,cg_multi_warp_tile,shfl_outside_mask,uninitialized_shared_option,error_codes,shared_never_written,malloc_under_address_limit}.cu \
           tests/libs/{thrust_merge,thrust_set_operations,thrust_placeholders,thrust_random,thrust_iterators,thrust_gather_zip,thrust_search_compact,thrust_sort_scan_by_key}.cu; do
  echo "$src" >> "$jobs"
done
# Each job prints "ok   FILE compiles with nvcc", or nvcc's messages and "FAILED FILE".
export nvcc flags work
compile() {
  set -- $1
  src=$1; shift
  obj=$work/$(echo "$src" | tr / _).o
  if "$nvcc" $flags "$@" "$src" -o "$obj" > "$obj.log" 2>&1; then
    echo "ok   $src compiles with nvcc"
  else
    cat "$obj.log"; echo "FAILED $src"
  fi
}
export -f compile
xargs -P "$(nproc)" -I{} bash -c 'compile "$@"' _ {} < "$jobs" | tee "$work/results"
if grep -q '^FAILED' "$work/results"; then
  echo "$(grep -c '^FAILED' "$work/results") of $(wc -l < "$jobs") files did not compile with nvcc"
  exit 1
fi
echo "all $(wc -l < "$jobs") files compile with nvcc"
