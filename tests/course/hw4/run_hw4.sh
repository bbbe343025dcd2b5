#!/usr/bin/env bash
# The course's HW4 kernels on simtlab: fill a copy of llmsys_hw4's src/ with simtlab's
# solution and copy hw4_driver.cu beside them (fill_hw4.sh); run the driver, which
# includes the two filled course files, under `simt exec`; then build the files as the
# course's Python loads them and call them through ctypes (ctypes_check.py). Extra
# arguments go to simt exec (e.g. --json=FILE); SIMT_OPTIONS=report=tables prints
# every launch's counters.
#
#   usage: run_hw4.sh HW4_CHECKOUT [SIMT] [simt exec options...]   (exit status 0: all PASS)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
checkout=${1:?usage: run_hw4.sh HW4_CHECKOUT [SIMT] [simt exec options...]}
simt=${2:-$root/build/cli/simt}
shift $(( $# >= 2 ? 2 : 1 ))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/fill_hw4.sh" "$checkout" "$work"
status=0
"$simt" exec "$@" "$work/src/hw4_driver.cu" || status=$?
# The course's way in: its Python loads minitorch/cuda_kernels/{softmax,layernorm}_kernel.so
# with ctypes. Build them from the same files with simt cc --shared and call the
# launchers from Python on numpy arrays (needs python3-numpy).
mkdir -p "$work/minitorch/cuda_kernels"
for k in softmax_kernel layernorm_kernel; do
  "$simt" cc --shared -o "$work/minitorch/cuda_kernels/$k.so" "$work/src/$k.cu"
done
/usr/bin/python3 "$here/ctypes_check.py" \
  "$work/minitorch/cuda_kernels/softmax_kernel.so" "$work/minitorch/cuda_kernels/layernorm_kernel.so" || status=$?
exit $status
