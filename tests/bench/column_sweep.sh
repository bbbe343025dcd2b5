#!/usr/bin/env bash
# The plain twin's pace, measured: tests/bench/column_sweep.cu as a sampled launch
# (a tiny sample budget: a few blocks counted, the others run uncounted through the
# plain twin) with the lanes of an uncounted block taking turns every 65,536 global
# accesses (the default), every 4,096, and never (plain_pace=0), in turn, ROUNDS rounds.
# Prints each run's launch seconds and output hash (they must agree), then each pace's
# median against plain_pace=0's.
#   bash tests/bench/column_sweep.sh [SIMT] [ROUNDS] [-- column_sweep's arguments]
set -euo pipefail
cd "$(dirname "$0")/../.."
simt=${1:-build/cli/simt}
rounds=${2:-3}
shift $(($# < 2 ? $# : 2))
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$simt" cc tests/bench/column_sweep.cu -o "$work/column_sweep"
base="sample_probe=0.002:sample_budget=0.01:races=off:threads=${THREADS:-$(nproc)}"
for r in $(seq "$rounds"); do
  for pace in 65536 4096 0; do
    line=$(SIMT_OPTIONS="$base:plain_pace=$pace" "$work/column_sweep" "$@")
    echo "plain_pace=$pace  $line"
  done
done | tee "$work/runs.txt"
python3 - "$work/runs.txt" <<'PY'
import re, statistics, sys
runs, hashes = {}, set()
for line in open(sys.argv[1]):
    m = re.match(r"plain_pace=(\d+) .*launch ([\d.]+) s, output hash (\w+)", line)
    runs.setdefault(m.group(1), []).append(float(m.group(2)))
    hashes.add(m.group(3))
never = statistics.median(runs["0"])
for pace, times in runs.items():
    t = statistics.median(times)
    print(f"plain_pace={pace:>5}: median launch {t:.2f} s, {t / never:.2f}x plain_pace=0's")
print("outputs: identical" if len(hashes) == 1 else f"outputs DIFFER: {sorted(hashes)}")
sys.exit(0 if len(hashes) == 1 else 1)
PY
