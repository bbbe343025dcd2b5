#!/usr/bin/env bash
# Copy the course's HW4 CUDA sources (src/) out of a checkout of llmsys_hw4 and write
# simtlab's solution between their markers; nothing else changes.
#
#   usage: fill_hw4.sh HW4_CHECKOUT DEST        (DEST/src/softmax_kernel.cu ... afterwards)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
checkout=${1:?usage: fill_hw4.sh HW4_CHECKOUT DEST}
dest=${2:?usage: fill_hw4.sh HW4_CHECKOUT DEST}
mkdir -p "$dest"
rm -rf "$dest/src"
cp -r "$checkout/src" "$dest/src"
/usr/bin/env python3 "$here/../fill_todos.py" "$dest" "$here/solution" --prefix ASSIGN4_ \
  --target "ASSIGN4_1_*.cu=src/softmax_kernel.cu" --target "ASSIGN4_2_*.cu=src/layernorm_kernel.cu"
