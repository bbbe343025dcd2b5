#!/usr/bin/env bash
# <cuda_fp8.h> against CUDA 13 (docs/validation/fp8-conversions.md): builds
# tests/cuda/fp8_conversions.cu with nvcc (CUDA's own header, host code: every float
# bit pattern, every half and bfloat16, both formats, both saturation modes ...) and
# runs the same file through simtlab (simtlab's header, host code and a kernel), then
# compares the host lines, which must be identical, and checks that simtlab's device
# lines equal its host lines. On a machine with a GPU the nvcc build also prints the
# GPU's device lines and every input where the GPU differs from CUDA's host code
# ("differs ..."): the probe of the device-side conversions.
# usage: tests/cuda/fp8_conversions.sh [NVCC [SIMT]]   (about 2 minutes; "quick" as
# a third argument skips the 2^32 floats)
set -euo pipefail
cd "$(dirname "$0")/../.."
nvcc=${1:-nvcc}
simt=${2:-build/cli/simt}
quick=${3:-}
out=docs/validation/data/fp8
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$nvcc" -std=c++20 -O2 -arch=sm_90 -o "$work/fp8c" tests/cuda/fp8_conversions.cu
"$work/fp8c" $quick > "$work/nvcc.txt"
"$simt" exec tests/cuda/fp8_conversions.cu -- $quick > "$work/simt.txt" 2> /dev/null
if [ -z "$quick" ]; then
  cp "$work/nvcc.txt" "$out/fp8_conversions_nvcc13.txt"
  cp "$work/simt.txt" "$out/fp8_conversions_simtlab.txt"
fi
status=0
if diff <(grep '^host' "$work/nvcc.txt") <(grep '^host' "$work/simt.txt"); then
  echo "ok   host lines identical: $(grep -c '^host' "$work/nvcc.txt") (nvcc $("$nvcc" --version | grep -o 'release [0-9.]*'))"
else
  echo "FAIL host lines differ"; status=1
fi
# simtlab's device lines against its host lines (same hashes, no 'differs').
if grep -q '^differs' "$work/simt.txt"; then
  grep '^differs' "$work/simt.txt"; status=1
fi
for m in "E4M3 NOSAT" "E4M3 SATFINITE" "E5M2 NOSAT" "E5M2 SATFINITE"; do
  read -r h b f < <(grep "^device $m " "$work/simt.txt" | awk '{print $5, $7, $9}')
  host=$(grep "^host $m float-strata" "$work/simt.txt")
  if [[ "$host" == *"float-strata $f half $h bfloat16 $b"* ]]; then echo "ok   simtlab device = host: $m"
  else echo "FAIL simtlab device != host: $m"; status=1; fi
done
for k in E4M3 E5M2; do
  if [ "$(grep "^device fp8-to-half $k" "$work/simt.txt" | cut -d' ' -f4-)" == "$(grep "^host fp8-to-half $k" "$work/simt.txt" | cut -d' ' -f4-)" ]; then
    echo "ok   simtlab device = host: fp8-to-half $k"
  else echo "FAIL fp8-to-half $k"; status=1; fi
done
# With a GPU: its device lines, and the inputs where it differs from CUDA's host code.
grep -E '^(device|differs)' "$work/nvcc.txt" || true
exit $status
