#!/usr/bin/env bash
# Issue 31, the GPU side: several GPUs against two real H200s (docs/validation/multigpu-h200x2.md).
# On the nvidia-h200-x2 machine, from the repository root:
#   bash tests/cuda/run_multigpu_x2.sh            # 2 ranks, the sweep to 1 GiB
#   bash tests/cuda/run_multigpu_x2.sh --smoke    # 1 rank, sweep to 16 MiB: proves the build on one GPU
# Builds with nvcc 13 and NCCL from the nvidia-nccl-cu13 wheel (fallback: the CUDA
# toolkit's or the system's NCCL): tests/cuda/nccl_sweep.cu, tests/multigpu/nccl_collectives.cu
# and the kernels/parallel programs listed in tests/cuda/multigpu_x2_programs.txt, runs
# them at the sizes tests/cuda/run_multigpu_sim.sh runs them on the simulator, and puts
# everything (env, sweep CSV, NCCL's tuning log, program outputs, exit codes and wall
# times) into $OUT/multigpu_x2_gpu.tar.gz (OUT defaults to /tmp/out).
# The archive is rewritten after every step, so a run cut short still brings back what ran.
# NCCL_FROM=system uses the image's own libnccl (2.28.3 there, the calibration's) instead.
# Then, here: tests/cuda/compare_multigpu_x2.py SIM_DIR GPU_DIR.
# No MPI, no Nsight Systems needed. NVLink multicast stays off (NCCL_NVLS_ENABLE=0) and
# every variable the machine sets (TORCH_SYMM_MEM_DISABLE_MULTICAST, NVSHMEM_DISABLE_NVLS)
# is inherited by every child: nothing here clears the environment.
set -uo pipefail
cd "$(dirname "$0")/../.."
smoke=0; [ "${1:-}" = --smoke ] && smoke=1
ranks=2; max=1G; iters=50
[ $smoke = 1 ] && { ranks=1; max=16M; iters=20; }
out=${OUT:-/tmp/out}
work=$(mktemp -d); res=$work/gpu; bin=$work/bin
mkdir -p "$out" "$res" "$bin"
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}

# NCCL: the wheel's include/ and lib/, found defensively (a namespace package has no __file__).
nccl_dir=""
[ "${NCCL_FROM:-wheel}" = system ] || nccl_dir=$(python3 -c 'import nvidia.nccl as m, os; p = list(getattr(m, "__path__", [])); print(p[0] if p else os.path.dirname(m.__file__))' 2>/dev/null)
inc=""; lib=""
if [ -n "$nccl_dir" ] && [ -d "$nccl_dir" ]; then
  h=$(find "$nccl_dir" -name nccl.h | head -1); [ -n "$h" ] && inc=$(dirname "$h")
  lib=$(find "$nccl_dir" -name 'libnccl.so*' | sort | head -1)
fi
[ -n "$lib" ] || lib=$(ldconfig -p | awk '/libnccl\.so/ { print $NF; exit }')  # fallback: the system's
for d in /usr/local/cuda/include /usr/include; do [ -z "$inc" ] && [ -f $d/nccl.h ] && inc=$d; done
[ -n "$lib" ] && [ -n "$inc" ] || { echo "no NCCL found (wheel dir '$nccl_dir')" | tee "$res/env.txt"; exit 1; }
export LD_LIBRARY_PATH=$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$work/nccl_link" && ln -sf "$lib" "$work/nccl_link/libnccl.so"  # the wheel has only libnccl.so.2; nvcc wants -lnccl

{
  echo "# date: $(date -u +%FT%TZ)  smoke: $smoke  ranks: $ranks  sweep to $max"
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.sm,clocks.max.sm --format=csv
  nvidia-smi topo -m
  nvcc --version | tail -2
  echo "NCCL dir: $nccl_dir"; echo "NCCL include: $inc ($(grep -m1 'define NCCL_VERSION_CODE' "$inc/nccl.h"))"
  echo "NCCL lib: $lib"; echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  [ -n "$nccl_dir" ] && find "$nccl_dir" -maxdepth 2 | head -20
  python3 -m pip show nvidia-nccl-cu13 2>/dev/null | grep -i '^version'
  echo "system NCCL: $(ldconfig -p | grep -o '/[^ ]*libnccl\.so[^ ]*' | tr '\n' ' ')"
  env | grep -E '^(NCCL|NVSHMEM|TORCH_SYMM|CUDA_VISIBLE)' | sort
} > "$res/env.txt" 2>&1
cat "$res/env.txt"
tar czf "$out/multigpu_x2_gpu.tar.gz" -C "$work" gpu

# Build everything at once (cores are plenty here).
nv="nvcc -arch=sm_90 -I$inc"
build() { name=$1; shift; $nv "$@" -o "$bin/$name" -L"$work/nccl_link" -lnccl -lpthread > "$res/build_$name.txt" 2>&1 || echo "NOT BUILT: $name" | tee -a "$res/build_$name.txt"; }
build nccl_sweep -std=c++17 -O2 tests/cuda/nccl_sweep.cu &
build nccl_collectives -std=c++17 -O2 tests/multigpu/nccl_collectives.cu &
for src in ddp pipeline tensor_parallel zero moe; do
  build $src -std=c++20 --fmad=false kernels/parallel/$src.cu &
done
wait

# run NAME TIMEOUT CMD...: output to NAME.txt; exit code and wall time to status.txt.
run() {
  name=$1; limit=$2; shift 2
  start=$(date +%s.%N)
  timeout "$limit" "$@" < /dev/null > "$res/$name.txt" 2>&1
  rc=$?
  printf '%-20s exit %3d  wall_s %8.2f\n' "$name" $rc "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')" \
    | tee -a "$res/status.txt"
  tar czf "$out/multigpu_x2_gpu.tar.gz" -C "$work" gpu
}
run sweep 420 "$bin/nccl_sweep" --ranks $ranks --max-bytes $max --iters $iters
# NCCL's own account of what it picked (algorithm, protocol, channels), one call per point.
run sweep_tuning 150 env NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,TUNING,GRAPH "$bin/nccl_sweep" --ranks $ranks --max-bytes $max --iters 1 --warmup 0 --no-check --no-peer
run nccl_collectives 60 "$bin/nccl_collectives"
grep -v '^#' tests/cuda/multigpu_x2_programs.txt | while IFS='|' read -r name src args; do
  name=$(echo $name); src=$(basename $(echo $src) .cu)
  [ -n "$name" ] || continue
  run "prog_$name" 60 "$bin/$src" --ranks $ranks $args
done

cp "$res/status.txt" "$out/status.txt"
grep -E '^[a-z_0-9]+,' "$res/sweep.txt" | head -3
echo "archive: $out/multigpu_x2_gpu.tar.gz ($(du -h "$out/multigpu_x2_gpu.tar.gz" | cut -f1))"
