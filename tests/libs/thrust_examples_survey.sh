#!/usr/bin/env bash
# Runs every Thrust example of NVIDIA's CCCL repository (thrust/examples/*.cu, the
# programs CUDA 13's Thrust ships with) under `simt exec`, one at a time, and prints a
# table: built or not, the program's exit status, seconds, and the first compiler error.
# Not part of ctest (the examples are not in this repository):
#   bash tests/libs/thrust_examples_survey.sh SIMT_BINARY CCCL/thrust/examples [TIMEOUT_S]
# docs/frontend.md ("Thrust") records what it printed for simtlab's own Thrust headers
# and for Debian's libthrust-dev/libcub-dev 1.17 put in their place.
set -u
simt=${1:?simt binary}
examples=${2:?CCCL thrust/examples directory}
limit=${3:-300}
printf '%-34s %-7s %-6s %6s  %s\n' example built exit seconds "first error"
cd "$examples" || exit 2
for f in *.cu; do
  start=$(date +%s.%N)
  out=$(timeout "$limit" "$simt" exec "$f" 2>&1 < /dev/null)
  rc=$?
  secs=$(echo "$(date +%s.%N) - $start" | bc)
  if grep -q "^== simt: " <<<"$out"; then built=yes; else built=no; fi
  err=$(grep -m1 -E "error:" <<<"$out" | sed -E 's/^.*error: //' | cut -c1-90)
  [ "$rc" = 124 ] && err="(timed out after ${limit} s)"
  printf '%-34s %-7s %-6s %6.1f  %s\n' "$f" "$built" "$rc" "$secs" "$err"
done
