#!/bin/bash
# llm.c dev/cuda files built by `simt cc`, run at their default sizes on a bigger
# machine's CPUs (the simulator, not a GPU): every block size's validation, then the
# benchmark, whose repeats are skipped or deferred (docs/exec.md, "Deferred repeats").
# docs/validation/llmc-default-sizes.md.
#
# Prepare a folder DIR here (simtlab built in build/, llm.c's dev/cuda in SRC):
#   bash tests/cuda/run_llmc_default_sizes.sh prepare SRC DIR softmax_forward classifier_fused
# copies this script, builds each file with `simt cc`, and copies the shared libraries
# with the dynamic loader, so that DIR runs on another Linux whatever its glibc.
# Run there (logs go to $OUT):
#   JOBS=5 SIMT_OPTIONS=threads=3 LIMIT=575 OUT=logs DIR/run_llmc_default_sizes.sh "classifier_fused 2" ...
# Race checks are off here unless $SIMT_OPTIONS says otherwise (the race shadow of
# 411 M-element buffers), and 4 threads run blocks.
set -u
if [ "${1:-}" = prepare ]; then
  src=$2 dir=$(realpath -m "$3"); shift 3
  root=$(cd "$(dirname "$0")/../.." && pwd)
  mkdir -p "$dir/lib"
  cp "$0" "$dir/"
  for f in "$@"; do (cd "$src" && "$root/build/cli/simt" cc "$f.cu" -o "$dir/$f") || exit 1; done
  for f in "$@"; do ldd "$dir/$f"; done | awk '/=>/ {print $3} /ld-linux/ {print $1}' | xargs -I{} cp -L {} "$dir/lib/"
  cp /usr/libexec/coreutils/libstdbuf.so "$dir/lib/"
  exit 0
fi
cd "$(dirname "$0")"
L=$PWD/lib
nproc; free -g | head -2; ldd --version | head -1
export SIMT_OPTIONS="races=off threads=4 ${SIMT_OPTIONS:-}"  # the caller's items come later and win
one() {  # program kernel
  local log=$OUT/$1_k$2.log
  local t0=$(date +%s)
  _STDBUF_O=L timeout ${LIMIT:-540} $L/ld-linux-x86-64.so.2 --library-path $L --preload $L/libstdbuf.so ./$1 $2 2>&1 |
    while IFS= read -r line; do echo "$(( $(date +%s) - t0 ))s $line"; done > $log
  echo "exit ${PIPESTATUS[0]} after $(( $(date +%s) - t0 ))s" >> $log
}
export -f one; export L
printf '%s\n' "$@" | xargs -P ${JOBS:-4} -L1 bash -c 'one $0 $1'
grep -H -E "exit|match|rror|FAIL|mismatch" $OUT/*.log | head -100
