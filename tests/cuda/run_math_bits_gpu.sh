#!/usr/bin/env bash
# On the H200: the GPU half of `simt validate` for the math and NaN programs of
# tests/frontend (nvcc 13 --fmad=false builds, their output, launch digests, ncu).
# Compare here with
#   simt validate tests/frontend/NAME.cu --gpu-results DIR/v/NAME
# Their stdout is kept as docs/validation/data/mufu/NAME_h200_stdout.txt, which
# tests/frontend/test_program_build.cpp compares with the simulator's output.
#
#   usage: run_math_bits_gpu.sh OUTDIR      (writes OUTDIR/math_bits_gpu.tgz)
set -uo pipefail
out=${1:?usage: run_math_bits_gpu.sh OUTDIR}
mkdir -p "$out"
work=$(mktemp -d)
for n in cuda_math_bits cuda_math_bits2 nan_bits; do
  bash program/validate_gpu.sh "$work/v/$n" "tests/frontend/$n.cu" > "$out/$n.log" 2>&1
  echo "status $?" >> "$out/$n.log"
  rm -f "$work/v/$n/gpu_prog" "$work/v/$n/gpu_launch_digest.so"
done
tar -czf "$out/math_bits_gpu.tgz" -C "$work" v
