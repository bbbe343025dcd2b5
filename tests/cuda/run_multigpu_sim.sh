#!/usr/bin/env bash
# Issue 31, the simulator side: the same sweep and programs as tests/cuda/run_multigpu_x2.sh
# runs on two H200s, on `simt exec --gpus 2 --device H200 --link NVLink4`; the times the
# programs print are simtlab's predictions (docs/validation/multigpu-h200x2.md).
#   bash tests/cuda/run_multigpu_sim.sh [--smoke] [OUTDIR] [MAX_BYTES]
#     OUTDIR     default docs/validation/data/multigpu_x2/sim (--smoke: .../smoke_sim1)
#     MAX_BYTES  the sweep's largest size, default 1G (feasible here: about 25 min on 2
#                busy cores, 6 GiB of memory; 256M takes about a quarter of that)
#   --smoke: 1 GPU, --ranks 1, the sweep to 16M with 20 iterations: the twin of
#            `run_multigpu_x2.sh --smoke` on the one-GPU machine.
# Files, named as on the GPU side: env.txt, sweep.txt, nccl_collectives.txt, prog_NAME.txt
# (stdout), report_NAME.txt (the end of simt's report: clock, links, timeline),
# status.txt (exit code and wall time). Then tests/cuda/compare_multigpu_x2.py SIM_DIR GPU_DIR.
set -uo pipefail
cd "$(dirname "$0")/../.."
smoke=0; [ "${1:-}" = --smoke ] && { smoke=1; shift; }
gpus=2; iters=50; def=docs/validation/data/multigpu_x2/sim
[ $smoke = 1 ] && { gpus=1; iters=20; def=docs/validation/data/multigpu_x2/smoke_sim1; }
res=${1:-$def}
max=${2:-1G}; [ $smoke = 1 ] && max=${2:-16M}
simt=${SIMT:-./build/cli/simt}
flags="--gpus $gpus --device H200 --link NVLink4"
mkdir -p "$res"; rm -f "$res/status.txt"
{
  echo "# date: $(date -u +%FT%TZ)  simtlab commit: $(git rev-parse --short HEAD)  smoke: $smoke"
  echo "# simt exec $flags   sweep to $max, iters $iters"
  "$simt" devices 2>/dev/null | grep -E "^(H200|NVLink4) "
} > "$res/env.txt"

# run NAME FILE ARGS...: simt exec FILE -- ARGS; stdout to NAME.txt, report tail to report_NAME.txt.
run() {
  name=$1; file=$2; shift 2
  start=$(date +%s.%N)
  "$simt" exec $flags "$file" -- "$@" < /dev/null > "$res/$name.txt" 2> "$res/$name.err"
  rc=$?
  grep -v '^\[launch' "$res/$name.err" | tail -40 > "$res/report_$name.txt"; rm -f "$res/$name.err"
  printf '%-20s exit %3d  wall_s %8.2f\n' "$name" $rc "$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')" \
    | tee -a "$res/status.txt"
}
[ "${SWEEP:-1}" = 1 ] && run sweep tests/cuda/nccl_sweep.cu --ranks $gpus --max-bytes $max --iters $iters  # SWEEP=0: programs only
run nccl_collectives tests/multigpu/nccl_collectives.cu
grep -v '^#' tests/cuda/multigpu_x2_programs.txt | while IFS='|' read -r name src args; do
  name=$(echo $name); src=$(echo $src)
  [ -n "$name" ] || continue
  run "prog_$name" "$src" --ranks $gpus $args
done
