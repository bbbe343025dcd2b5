#!/bin/bash
# On a GPU machine (the device's repository root): builds tests/cuda/runtime_errors_main.cu
# and the warp handoff with nvcc, runs the probe three times (a sticky fault's code
# varies between runs, see docs/validation/h200-runtime-errors.md) and leaves the
# outputs under $OUT.
set -eu
cd tests/cuda
nvcc -arch=sm_90 -o /tmp/rt runtime_errors_main.cu
nvcc -arch=sm_90 -o /tmp/wh ../frontend/warp_handoff.cu
for i in 1 2 3; do /tmp/rt > "$OUT/rt$i.txt" 2>&1; echo "rc=$?" >> "$OUT/rt$i.txt"; done
/tmp/wh > "$OUT/wh.txt"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$OUT/gpu.txt"
