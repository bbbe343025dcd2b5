#!/bin/sh
# ctest plots_access: the warp trace (SIMT_OPTIONS=trace_warps=N) of tests/cuda/plots_access.cu
# drawn by plots/access_pattern.py and plots/bank_map.py, and their errors (exit 2).
# Usage: plots_access.sh SIMT SOURCE_DIR (run in a scratch directory).
set -u
simt=$1
src=$2
py=/usr/bin/python3
ap=$src/plots/access_pattern.py
bm=$src/plots/bank_map.py
fail() { echo "plots_access: $*" >&2; exit 1; }

rm -f plots_access.json plots_coalesced.png plots_strided.png plots_columns.png
SIMT_OPTIONS=trace_warps=2 "$simt" exec "$src/tests/cuda/plots_access.cu" --json=plots_access.json >/dev/null \
  || fail "simt exec failed"
grep -q '"access_trace"' plots_access.json || fail "no access_trace in the launch JSON"

# Line 10: coalesced (4 sectors), 15: stride 32 floats (32 sectors), 22: a tile column (32-way).
$py "$ap" plots_access.json --line 10 --file plots_access.cu -o plots_coalesced.png || fail "access_pattern.py --line 10"
$py "$ap" plots_access.json --line 15 --warp 0 -o plots_strided.png || fail "access_pattern.py --line 15"
$py "$bm" plots_access.json --line 22 -o plots_columns.png || fail "bank_map.py --line 22"
for f in plots_coalesced.png plots_strided.png plots_columns.png; do test -s $f || fail "$f is missing or empty"; done

# What the pictures count, from the same JSON.
$py - <<'PY' || fail "the traced addresses are not the expected patterns"
import json
trace = [e for l in json.load(open("plots_access.json")) for e in l.get("access_trace", [])]
def first(line, space, op):
    return next(e for e in trace if e["line"] == line and e["space"] == space and e["op"] == op)
sectors = lambda e: len({a // 32 for a in e["addresses"] if a is not None})
assert sectors(first(10, "global", "ld")) == 4
assert sectors(first(15, "global", "ld")) == 32
assert {o // 4 % 32 for o in first(22, "shared", "ld")["shared_offset"]} == {0}
PY

# Errors: one line on stderr and status 2, never a traceback.
expect2() {
  out=$("$@" 2>&1 >/dev/null)
  rc=$?
  test $rc -eq 2 || fail "exit $rc, not 2: $*"
  case $out in *Traceback*) fail "a traceback: $*" ;; esac
  test -n "$out" || fail "no message: $*"
}
expect2 $py "$ap" no_such_file.json --line 10 -o x.png
expect2 $py "$bm" no_such_file.json --line 22 -o x.png
expect2 $py "$ap" plots_access.json --line 3 -o x.png    # no trace at the line
expect2 $py "$bm" plots_access.json --line 10 -o x.png   # only global accesses there
expect2 $py "$ap" plots_access.json --line 10 -o /nonexistent/dir/x.png
echo '{not json' > plots_bad.json
expect2 $py "$bm" plots_bad.json --line 22 -o x.png
echo "plots_access: ok"
