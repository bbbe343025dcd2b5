#!/bin/sh
# `cmake --install` gives a simt that builds programs from its own copies of
# simtlab's headers, pass and library, not from the source tree.
#   usage: installed_simt.sh BUILD_DIR WORK_DIR SOURCE_DIR
set -eu
build=$1 work=$2 src=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
SIMT_CACHE_DIR="$work/cache" "$work/prefix/bin/simt" exec "$src/tests/frontend/no_includes.cu" >/dev/null 2>"$work/stderr" ||
  { cat "$work/stderr"; exit 1; }
grep -q "1 kernel launch" "$work/stderr" || { echo "no launch report:"; cat "$work/stderr"; exit 1; }
# The debug info names the headers the program was compiled with.
program=$(find "$work/cache" -type f -name no_includes | head -n1)
if grep -q "$src/sim/" "$program"; then echo "built against the source tree, not the installed toolchain"; exit 1; fi
grep -q "$work/prefix/share/simtlab/toolchain" "$program" || { echo "installed toolchain not used"; exit 1; }
echo "installed simt: ok"
