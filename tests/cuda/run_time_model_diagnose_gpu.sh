#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: the launches the kernel time
# model misses most (docs/validation/h200-short-kernels.md, "What is still missed"),
# each profiled with ncu's full set and its source page — per SASS instruction: executed
# instructions, stall samples by reason — so that what each one waits for on the GPU
# can be read instead of guessed. One line of CASES per case ("kernel --param value").
#   bash tests/cuda/run_time_model_diagnose_gpu.sh OUTDIR CASES
# Writes OUTDIR/diagnose.tar.gz: per case NAME.details.csv (every section),
# NAME.raw.csv (every metric of the full set, one row a launch), NAME.source.csv (SASS
# with per-instruction metrics), and the whole binary's SASS.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:?OUTDIR}
cases=${2:?CASES file}
work=$(mktemp -d)
mkdir -p "$out" "$work/cases"
flags="-std=c++20 --fmad=false -arch=sm_90 -I. -lineinfo"
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do
  echo "$s"
done | xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $work/\$(echo {} | tr / _).o || echo 'NOT BUILT: {}'"
nvcc $flags -o "$work/kernel_timing" "$work"/*.o
cuobjdump --dump-sass "$work/kernel_timing" > "$work/cases/kernel_timing.sass" 2>&1
n=0
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  n=$((n + 1))
  name=$(printf '%02d_%s' "$n" "$(echo "$line" | tr -c 'A-Za-z0-9_\n' '_' | cut -c1-60)")
  echo "$line" > "$work/case.txt"
  echo "== $name: $line"
  ncu --clock-control none --set full --import-source yes -f -o "$work/cases/$name" \
    "$work/kernel_timing" "$work/case.txt" > "$work/cases/$name.log" 2>&1
  ncu -i "$work/cases/$name.ncu-rep" --page details --csv > "$work/cases/$name.details.csv" 2>&1
  ncu -i "$work/cases/$name.ncu-rep" --page raw --csv > "$work/cases/$name.raw.csv" 2>&1
  ncu -i "$work/cases/$name.ncu-rep" --page source --csv --print-source sass > "$work/cases/$name.source.csv" 2>&1
  grep -h '"gpu__time_duration.sum"\|Duration' "$work/cases/$name.details.csv" | head -4
done < "$cases"
tar -czf "$out/diagnose.tar.gz" -C "$work/cases" --exclude "*.ncu-rep" .
ls -la "$out"
