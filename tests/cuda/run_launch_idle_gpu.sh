#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: how much of each short
# launch its SMs spend idle — ncu's elapsed cycles beside the SMs' active cycles
# (average and busiest SM) — for the short-kernel probe, the cold-start probe (empty
# kernels, stores only, one load, dependent code) and the HW1 validation cases
# (docs/validation/h200-short-kernels.md: the part of a short launch the model's
# launch_overhead_us does not hold).
#   bash tests/cuda/run_launch_idle_gpu.sh OUTDIR
# Writes OUTDIR/launch_idle.tar.gz (one CSV per program, device.txt).
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
work=$(mktemp -d)
mkdir -p "$out" "$work/csv"
metrics=gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.max
flags="-std=c++20 --fmad=false -arch=sm_90"
nvcc $flags -o "$work/short_kernel_probe" tests/cuda/short_kernel_probe.cu
nvcc $flags -o "$work/cold_start_probe" tests/cuda/cold_start_probe.cu
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do
  echo "$s"
done | xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -I. -x cu -c {} -o $work/\$(echo {} | tr / _).o || echo 'NOT BUILT: {}'"
nvcc $flags -o "$work/kernel_timing" "$work"/*.o
for p in short_kernel_probe cold_start_probe; do
  ncu --clock-control none --csv --metrics "$metrics" "$work/$p" > "$work/csv/$p.csv" 2> "$work/csv/$p.log"
done
ncu --clock-control none --csv --metrics "$metrics" "$work/kernel_timing" tests/cuda/counter_cases.txt \
  > "$work/csv/counter_cases.csv" 2> "$work/csv/counter_cases.log"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/csv/device.txt"
tar -czf "$out/launch_idle.tar.gz" -C "$work/csv" .
ls -la "$out"
