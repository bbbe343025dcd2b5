#!/usr/bin/env bash
# On a machine with an NVIDIA GPU, nvcc and Nsight Compute: one batched run for the
# kernel time model (docs/validation/h200-time-model.md) and the instruction
# estimate (docs/validation/h200-instructions.md). Writes into DIR:
#   ncu_time_micro.csv       the time-model microbenchmarks: duration and instructions
#   ncu_kernels_time.csv, ncu_timing.csv, ncu_timing_sizes.csv
#                            every course kernel at every validated size, duration only
#                            (one ncu pass, as the earlier timing data)
#   ncu_*_insts.csv          the same launches: warp- and thread-level instructions,
#                            L1 and L2 sector traffic
#   ncu_patterns_insts.csv   the canonical patterns (tests/cuda/patterns.cuh): instructions
#   *.sass                   cuobjdump of both programs, to read the instruction mix
#   bash tests/cuda/run_insts_gpu.sh OUTDIR
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
mkdir -p "$out"
build=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv > "$out/gpu.txt" 2>&1
flags="-std=c++20 --fmad=false -arch=sm_90 -lineinfo -I. -I.gpu-run/include -DFMT_HEADER_ONLY"
step() { echo "== $(date +%T) $*" >> "$out/steps.txt"; }
step build
nvcc $flags -o "$build/time_micro" tests/cuda/time_micro_main.cu > "$out/build.txt" 2>&1 &
nvcc $flags -o "$build/patterns" tests/cuda/patterns_main.cu >> "$out/build.txt" 2>&1 &
for s in kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/kernel_timing_main.cu; do echo "$s"; done |
  xargs -P "$(nproc)" -I{} sh -c "nvcc $flags -x cu -c {} -o $build/\$(echo {} | tr / _).o" >> "$out/build.txt" 2>&1
nvcc $flags -o "$build/kernel_timing" "$build"/*.o >> "$out/build.txt" 2>&1
wait
time_metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,sm__cycles_elapsed.avg.per_second
inst_metrics=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,l1tex__t_sector_hit_rate.pct,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors.sum,lts__t_sector_hit_rate.pct
prof() { timeout 150 ncu --clock-control none --csv --metrics "$@"; }
step micro
prof "$time_metrics,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,l1tex__m_xbar2l1tex_read_sectors.sum" \
  "$build/time_micro" > "$out/ncu_time_micro.csv" 2>> "$out/errors.txt"
python3 tests/cuda/calibrate_time_model.py micro "$out/ncu_time_micro.csv" 1980 > "$out/calibration.txt" 2>&1
step kernels
prof "$time_metrics" "$build/kernel_timing" tests/cuda/counter_cases.txt > "$out/ncu_kernels_time.csv" 2>> "$out/errors.txt"
prof "$inst_metrics" "$build/kernel_timing" tests/cuda/counter_cases.txt > "$out/ncu_kernels_insts.csv" 2>> "$out/errors.txt"
step sizes
prof "$time_metrics" "$build/kernel_timing" tests/cuda/timing_sizes.txt > "$out/ncu_timing_sizes.csv" 2>> "$out/errors.txt"
prof "$inst_metrics" "$build/kernel_timing" tests/cuda/timing_sizes.txt > "$out/ncu_timing_sizes_insts.csv" 2>> "$out/errors.txt"
step cases
prof "$time_metrics" "$build/kernel_timing" tests/cuda/timing_cases.txt > "$out/ncu_timing.csv" 2>> "$out/errors.txt"
prof "$inst_metrics" "$build/kernel_timing" tests/cuda/timing_cases.txt > "$out/ncu_timing_insts.csv" 2>> "$out/errors.txt"
step patterns
prof smsp__inst_executed.sum,smsp__thread_inst_executed.sum "$build/patterns" > "$out/ncu_patterns_insts.csv" 2>> "$out/errors.txt"
cuobjdump --dump-sass "$build/time_micro" > "$out/time_micro.sass" 2>&1
cuobjdump --dump-sass "$build/kernel_timing" | gzip > "$out/kernel_timing.sass.gz" 2>&1
step done
grep -c gpu__time_duration "$out"/ncu_*.csv; grep -c smsp__inst_executed.sum "$out"/ncu_*.csv
cat "$out/steps.txt" "$out/calibration.txt"; tail -n 5 "$out/build.txt" "$out/errors.txt"
