#!/usr/bin/env bash
# The GPU half of `simt validate`: build FILE.cu with nvcc as the simulator's build
# is checked against (--fmad=false), run it with the launch-digest preload, and, when
# ncu is installed, once more under Nsight Compute for the counters. simt validate
# runs this itself where there is a GPU; on a GPU machine without simtlab's build,
# run it alone and hand its directory to `simt validate FILE --gpu-results DIR`.
#
#   usage: validate_gpu.sh OUTDIR FILE.cu [MORE SOURCES] [nvcc flags: -I DIR -D NAME=VAL ...] [-- ARGS]
#   (several sources, as `simt validate main.cpp a.cu b.cu` passes them: nvcc builds them
#   together, with -rdc=true when there is more than one .cu, as simt exec links them)
#   writes OUTDIR/{gpu.digests, gpu.stdout, ncu.csv (if ncu), build.log, gpu.txt}
#   and OUTDIR/dumps/launch-N-alloc-ID.bin: the bytes of every allocation whose digest
#   changed at launch N (sim/exec/launch_dump.hpp), which `simt validate` reads to
#   compare a differing allocation element by element, in ulps (--max-ulp, --elem).
#
# The dumps are written by default, in the same run as the digests: a second run just
# to dump could disagree with the first (float atomics, anything timing-dependent),
# and `simt validate --gpu-results` can only compare what this directory holds. They
# are bounded: an allocation over validate_dump_max_bytes (256 MiB) is skipped, and
# dumping stops after validate_dump_budget (4 GiB) in all (options of $SIMT_OPTIONS,
# sim/options/options.inc, which the preload reads as the simulator does); skips are
# listed in OUTDIR/dumps/dump-notes.txt. SIMT_VALIDATE_DUMP=0 writes no dumps (digests
# only); SIMT_VALIDATE_METRICS, comma-separated, replaces the ncu metrics below.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: validate_gpu.sh OUTDIR FILE.cu [flags] [-- ARGS]}; shift
file=${1:?usage: validate_gpu.sh OUTDIR FILE.cu [flags] [-- ARGS]}; shift
flags=(); args=(); sources=("$file")
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; args=("$@"); break; fi
  case "$1" in
    *.cu|*.cpp|*.cc|*.cxx|*.c++) [ -f "$1" ] && { sources+=("$1"); shift; continue; } ;;
  esac
  flags+=("$1"); shift
done
cu_count=0
for s in "${sources[@]}"; do case "$s" in *.cu) cu_count=$((cu_count + 1)) ;; esac; done
[ "$cu_count" -gt 1 ] && flags+=(-rdc=true)
mkdir -p "$out"
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
ncu=$(command -v ncu || true)
[ -z "$ncu" ] && [ -x /usr/local/cuda/bin/ncu ] && ncu=/usr/local/cuda/bin/ncu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt" 2>&1 || { echo "no GPU"; exit 77; }
# The metrics simt counts exactly (docs/counters.md); simt validate compares them.
metrics=${SIMT_VALIDATE_METRICS:-l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum}
{
  "$nvcc" -O2 --fmad=false -arch=native -cudart shared -lineinfo "${flags[@]}" -o "$out/gpu_prog" "${sources[@]}" -lcublas -lcublasLt &&
  "$nvcc" -O2 -shared -Xcompiler -fPIC -cudart shared -I "$here/../.." -o "$out/gpu_launch_digest.so" "$here/gpu_launch_digest.cpp" -ldl
} > "$out/build.log" 2>&1 || { echo "nvcc failed:"; cat "$out/build.log"; exit 1; }
rm -rf "$out/dumps"
dump_dir="$out/dumps"
[ "${SIMT_VALIDATE_DUMP:-1}" = 0 ] && dump_dir=
# The caller's options first: the later items win.
options="${SIMT_OPTIONS:-}:validate_digests='$out/gpu.digests':validate_dump_dir='$dump_dir'"
SIMT_OPTIONS="$options" LD_PRELOAD="$out/gpu_launch_digest.so" "$out/gpu_prog" "${args[@]}" > "$out/gpu.stdout"
status=$?
if [ -n "$ncu" ]; then
  "$ncu" --clock-control none --csv --print-units base --metrics "$metrics" "$out/gpu_prog" "${args[@]}" \
    > "$out/ncu.csv" 2> "$out/ncu.log" || echo "ncu failed (see $out/ncu.log)"
fi
exit $status
