#!/usr/bin/env bash
# Copy the course's HW4 CUDA sources (src/) out of a checkout of llmsys_hw4, write
# simtlab's solution between their markers (nothing else in them changes), and put
# simtlab's driver beside them: DEST/src/hw4_driver.cu includes the two course files
# with quoted includes, so `simt exec` applies its syntax step to them (it does so for
# headers beside or below the file it builds, not for -I directories) and nvcc builds
# the same tree.
#
#   usage: fill_hw4.sh HW4_CHECKOUT DEST        (then build DEST/src/hw4_driver.cu)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
checkout=${1:?usage: fill_hw4.sh HW4_CHECKOUT DEST}
dest=${2:?usage: fill_hw4.sh HW4_CHECKOUT DEST}
mkdir -p "$dest"
rm -rf "$dest/src"
cp -r "$checkout/src" "$dest/src"
/usr/bin/env python3 "$here/../fill_todos.py" "$dest" "$here/solution" --prefix ASSIGN4_ \
  --target "ASSIGN4_1_*.cu=src/softmax_kernel.cu" --target "ASSIGN4_2_*.cu=src/layernorm_kernel.cu"
cp "$here/hw4_driver.cu" "$here/hw4_check.h" "$here/hw4_reference.h" "$dest/src/"
