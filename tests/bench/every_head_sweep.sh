#!/usr/bin/env bash
# What an iteration of llm.c's attention_backward kernel 1 loop costs the simulator
# (tests/bench/every_head_sweep.cu), on one simulator thread:
#   counted:   every block counted (exact=1), seconds / iterations;
#   uncounted: a sampled launch of R and of 4R rows of blocks (a tiny sample budget:
#              the same few blocks counted, the others run through the plain twin);
#              the difference in seconds over the difference in iterations.
# Also prints the output hashes, which must agree.
#   bash tests/bench/every_head_sweep.sh [SIMT] [-- every_head_sweep's arguments but --grid-rows]
set -euo pipefail
cd "$(dirname "$0")/../.."
simt=${1:-build/cli/simt}
shift $(($# < 1 ? $# : 1))
[ "${1:-}" = "--" ] && shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$simt" cc tests/bench/every_head_sweep.cu -o "$work/sweep" >/dev/null 2>&1
base="races=off:threads=1"
sampled="$base:sample_probe=0.002:sample_budget=0.01"
{
  echo "counted $(SIMT_OPTIONS="$base:exact=1" "$work/sweep" "$@" --grid-rows 1)"
  echo "sampled1 $(SIMT_OPTIONS="$sampled" "$work/sweep" "$@" --grid-rows 8 2>/dev/null)"
  echo "sampled4 $(SIMT_OPTIONS="$sampled" "$work/sweep" "$@" --grid-rows 32 2>/dev/null)"
} | tee "$work/runs.txt"
python3 - "$work/runs.txt" <<'PY'
import re, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) .*launch ([\d.]+) s, ([\d.e+]+) iterations, output hash (\w+)", line)
    runs[m.group(1)] = (float(m.group(2)), float(m.group(3)), m.group(4))
c = runs["counted"]
s1, s4 = runs["sampled1"], runs["sampled4"]
print(f"counted:   {c[0] / c[1] * 1e9:6.1f} ns an iteration")
print(f"uncounted: {(s4[0] - s1[0]) / (s4[1] - s1[1]) * 1e9:6.2f} ns an iteration (plain twin)")
same = s1[2] == s4[2] == c[2]
print("outputs: identical" if same else "outputs DIFFER")
sys.exit(0 if same else 1)
PY
