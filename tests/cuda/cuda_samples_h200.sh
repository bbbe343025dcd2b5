#!/usr/bin/env bash
# On a machine with a GPU: builds NVIDIA's introductory and concept samples (vectorAdd
# ... transpose, from a checkout of github.com/NVIDIA/cuda-samples) with nvcc, each from
# all its sources as the samples' CMake builds them, and the front-end programs that
# reproduce what they needed of simtlab (tests/frontend), then runs them all; writes
# each program's output and exit status to OUTDIR (docs/frontend.md, "NVIDIA's CUDA
# samples"; the record: docs/validation/h200-cuda-samples.md).
# usage: cuda_samples_h200.sh SAMPLES_CHECKOUT OUTDIR
# Under the device tool, write OUTDIR outside $OUT and tar it there: a run brings back
# a limited number of files (the 2026-12-03 run lost all but 8 outputs that way).
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
samples=$(cd "$1" && pwd)
out=$2
mkdir -p "$out/bin"
I=$samples/Samples/0_Introduction
C=$samples/Samples/2_Concepts_and_Techniques
flags=(-std=c++17 -O2 --fmad=false -arch=sm_90 -I "$samples/Common")
export out
{
  for s in vectorAdd matrixMul simpleVoteIntrinsics simpleTemplates simplePrintf simpleAssert asyncAPI clock; do
    echo "$s $I/$s/$s.cu"
  done
  echo "simpleAtomicIntrinsics $I/simpleAtomicIntrinsics/simpleAtomicIntrinsics.cu $I/simpleAtomicIntrinsics/simpleAtomicIntrinsics_cpu.cpp"
  echo "reduction $C/reduction/reduction.cpp $C/reduction/reduction_kernel.cu"
  echo "scalarProd $C/scalarProd/scalarProd.cu $C/scalarProd/scalarProd_cpu.cpp"
  echo "shfl_scan $C/shfl_scan/shfl_scan.cu"
  echo "histogram $C/histogram/main.cpp $C/histogram/histogram64.cu $C/histogram/histogram256.cu $C/histogram/histogram_gold.cpp"
  echo "transpose $samples/Samples/6_Performance/transpose/transpose.cu"
  for t in device_attributes cg_shfl_vector cg_multi_warp_tile shfl_outside_mask uninitialized_shared_option; do
    echo "$t $repo/tests/frontend/$t.cu"
  done
} > "$out/programs.txt"
flags_line="${flags[*]}"
xargs -P 16 -L 1 bash -c 'name=$0; nvcc '"$flags_line"' "$@" -o "$out/bin/$name" > "$out/$name.build.txt" 2>&1 && echo "built $name" || echo "BUILD FAILED $name"' < "$out/programs.txt"
while read -r name _; do
  [ -x "$out/bin/$name" ] || continue
  ( cd "$out/bin" && timeout 120 "./$name" > "$out/$name.out.txt" 2>&1; echo "$name exit $?" >> "$out/status.txt" )
done < "$out/programs.txt"
cat "$out/status.txt"
