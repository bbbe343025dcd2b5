#!/usr/bin/env bash
# Validation of every kernel in kernels/ and every program in examples/ against a
# real GPU: outputs bit for bit (stdout for the examples), and
# Nsight Compute's deterministic counters per launch.
#
#   tests/cuda/validate.sh sim [OUT]     simulator side (needs the CMake build):
#                                        OUT/sim: buffers, launches.json, launch_labels.txt,
#                                        examples/: the sources, stdout, launch JSON
#   tests/cuda/validate.sh gpu [OUT]     GPU side (needs nvcc, ncu, cuobjdump, python3; no
#                                        simtlab dependencies): OUT/gpu: buffers, ncu.csv,
#                                        driver.sass, gpu.txt; then the report
#   tests/cuda/validate.sh report [OUT]  writes docs/validation/h200.md from OUT/sim + OUT/gpu
#   tests/cuda/validate.sh all [OUT]     sim, then gpu (a machine that has both)
#
# OUT defaults to validation-out. The simulator side is deterministic, so it can
# run anywhere and be carried to the GPU machine (a few MB): see docs/exec.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-all}
out=${2:-validation-out}
build=${SIMT_BUILD_DIR:-build}
arch=${CUDA_ARCH:-sm_90}

run_sim() {
  cmake --build "$build" --target validate_driver_sim simt -j "$(nproc)"
  rm -rf "$out/sim" && mkdir -p "$out/sim/examples"
  SIMT_OPTIONS="report_json='$out/sim/launches.json'" "$build/tests/validate_driver_sim" "$out/sim" > "$out/sim/stdout.txt"
  echo "simulator side: $(ls "$out"/sim/*.f32 | wc -l) buffers, $(grep -c . "$out/sim/launch_labels.txt") launches in $out/sim"
  # Examples: the source travels to the GPU with the results, so both sides run the same text.
  for src in examples/*.cu; do
    local name
    name=$(basename "$src" .cu)
    cp "$src" "$out/sim/examples/$name.cu"
    "$build/cli/simt" exec "$src" --json="$out/sim/examples/$name.json" > "$out/sim/examples/$name.stdout" \
      2> "$out/sim/examples/$name.report.txt"
    echo "simulator side: example $name"
  done
}

# Each kernel file compiles in parallel; one link.
build_gpu_driver() {
  local objs=()
  local srcs=(kernels/*.cu kernels/harness.cpp util/*.cpp tests/cuda/validate_driver.cpp)
  mkdir -p "$out/gpu/obj"
  for src in "${srcs[@]}"; do
    local obj="$out/gpu/obj/$(basename "$src").o"
    objs+=("$obj")
    nvcc -std=c++20 -O2 --fmad=false -arch="$arch" -lineinfo -I. -x cu -c "$src" -o "$obj" &
  done
  wait
  nvcc -arch="$arch" -o "$out/gpu/validate_driver" "${objs[@]}"
}

run_gpu_examples() {
  mkdir -p "$out/gpu/examples"
  for src in "$out"/sim/examples/*.cu; do
    local name bin
    name=$(basename "$src" .cu)
    bin="$out/gpu/examples/$name"
    nvcc -std=c++20 -O2 --fmad=false -arch="$arch" -lineinfo -I. -o "$bin" "$src"
    "$bin" > "$bin.stdout" || true  # a failing program is reported, not fatal
    ncu --clock-control none --csv --metrics "$(paste -sd, tests/cuda/ncu_metrics.txt)" "$bin" 2> /dev/null \
        | grep '^"' > "$bin.ncu.csv" || true
    cuobjdump --dump-sass "$bin" > "$bin.sass"
  done
}

run_gpu() {
  if [ ! -f "$out/sim/launches.json" ]; then
    echo "validate.sh: $out/sim/launches.json is missing: run 'tests/cuda/validate.sh sim $out' where the simulator builds, and bring $out/sim here" >&2
    exit 1
  fi
  rm -rf "$out/gpu" && mkdir -p "$out/gpu/ncu-run"
  build_gpu_driver
  # A failing kernel is reported (its buffers differ or are missing), not fatal.
  "$out/gpu/validate_driver" "$out/gpu" > "$out/gpu/stdout.txt" ||
    echo "validate.sh: the GPU driver reported failures (see $out/gpu/stdout.txt)" >&2
  ncu --clock-control none --csv --metrics "$(paste -sd, tests/cuda/ncu_metrics.txt)" \
      "$out/gpu/validate_driver" "$out/gpu/ncu-run" > "$out/gpu/ncu.csv" ||
    echo "validate.sh: ncu reported a failure (see $out/gpu/ncu.csv)" >&2
  cuobjdump --dump-sass "$out/gpu/validate_driver" > "$out/gpu/driver.sass"
  run_gpu_examples
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    ncu --version | tail -1
    nvcc --version | tail -1
  } > "$out/gpu/gpu.txt"
  run_report
}

run_report() {
  mkdir -p docs/validation
  python3 tests/cuda/validation_report.py "$out" > docs/validation/h200.md && status=0 || status=$?
  echo "wrote docs/validation/h200.md (exit $status: 0 = everything matches)"
  return "$status"
}

case "$mode" in
  sim) run_sim ;;
  gpu) run_gpu ;;
  report) run_report ;;
  all) run_sim && run_gpu ;;
  *) echo "usage: $0 sim|gpu|report|all [OUT]" >&2; exit 2 ;;
esac
