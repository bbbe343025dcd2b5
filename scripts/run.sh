#!/usr/bin/env bash
# Builds simtlab and runs the main job: a counted kernel on a simulated GPU.
# Any arguments replace the default job, e.g.  bash scripts/run.sh run transpose_naive
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target simt
if (($#)); then exec ./build/cli/simt "$@"; fi
exec ./build/cli/simt run matmul_tiled --tile 16
