#!/usr/bin/env bash
# The cost model's rooms keep their order (cost/CMakeLists.txt): a file in
# cost/ROOM/ includes only its own room's headers, the rooms below it, models/
# where the room links it, and util/. A loose file in cost/ itself is in no room
# (no library compiles it). Usage: check_rooms.sh COST_DIR ROOM:SEEN,SEEN ...
set -euo pipefail
cost_dir=$1
shift
[ $# -gt 0 ] || { echo "check_rooms.sh: no rooms given" >&2; exit 2; }

fail=0
declare -A known=()
for spec in "$@"; do
  room=${spec%%:*}
  known[$room]=1
  IFS=, read -r -a seen <<<"${spec#*:}"
  allowed=("util/")
  for s in "${seen[@]}"; do
    if [ "$s" = models ]; then allowed+=("models/"); else allowed+=("cost/$s/"); fi
  done
  files=("$cost_dir/$room"/*.cpp "$cost_dir/$room"/*.hpp)
  [ -e "${files[0]}" ] || { echo "cost/$room/: room has no sources" >&2; fail=1; continue; }
  for f in "${files[@]}"; do
    [ -e "$f" ] || continue
    while IFS=: read -r line inc; do
      path=$(sed -E 's/^#include "([^"]+)".*/\1/' <<<"$inc")
      ok=0
      for a in "${allowed[@]}"; do [[ $path == "$a"* ]] && ok=1; done
      if [ $ok = 0 ]; then
        echo "cost/$room/$(basename "$f"):$line includes \"$path\": cost/$room may include only ${allowed[*]}" >&2
        fail=1
      fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*/\1:#include /')
  done
done

for entry in "$cost_dir"/*; do
  name=$(basename "$entry")
  case $name in CMakeLists.txt) continue ;; esac
  if [ ! -d "$entry" ] || [ -z "${known[$name]:-}" ]; then
    echo "cost/$name: not in a room (cost/CMakeLists.txt lists the rooms)" >&2
    fail=1
  fi
done

[ $fail = 0 ] && echo "cost rooms: every include stays in its room or below ($*)"
exit $fail
