#!/usr/bin/env bash
# The course's own HW1 tests against simtlab: fill a copy of llmsys_hw1 with simtlab's
# solution, build src/combine.cu unchanged with `simt cc --shared` into the path the
# course's Python loads, and run the course's CUDA tests.
#
#   usage: run_course_tests.sh HW1_CHECKOUT [SIMT]       (exit status: pytest's)
#
# Needs Python 3 with numpy, numba, pytest, hypothesis, typing_extensions and torch
# (Debian: python3-numpy python3-numba python3-pytest python3-hypothesis
# python3-typing-extensions python3-torch). Two stand-ins make a GPU-less machine look
# like the course's Colab: numba's own CUDA simulator (NUMBA_ENABLE_CUDASIM=1, so
# `numba.cuda.is_available()` is true and the CUDA tests are collected) and simtlab's
# python/pycuda (the course imports pycuda.autoinit but never uses it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
checkout=${1:?usage: run_course_tests.sh HW1_CHECKOUT [SIMT]}
simt=${2:-$root/build/cli/simt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$checkout/." "$work"
/usr/bin/python3 "$here/../fill_todos.py" "$work" "$here/solution" --prefix HW1_ \
  --target "HW1_*.cu=src/combine.cu" --target "HW1_*.py=minitorch/cuda_kernel_ops.py"
mkdir -p "$work/minitorch/cuda_kernels"
cd "$work"
"$simt" cc --shared -o minitorch/cuda_kernels/combine.so src/combine.cu
NUMBA_ENABLE_CUDASIM=1 PYTHONPATH="$root/python:$work" \
  /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/test_tensor_general.py -k cuda
