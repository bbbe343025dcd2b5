#!/usr/bin/env bash
# On a machine with an H200 and nvcc 13: measures the MUFU tables and checks
# sim/math's model of MUFU and of CUDA's math functions over every 32-bit input
# (docs/validation/h200-mufu.md). Usage: bash tests/cuda/run_mufu_gpu.sh OUTDIR
set -euo pipefail
out=${1:?usage: run_mufu_gpu.sh OUTDIR}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/mufu_run.txt"
nvcc --version | tail -1 | tee -a "$out/mufu_run.txt"
nvcc -arch=sm_90 -O3 --fmad=false -I. -o /tmp/mufu_probe tests/cuda/mufu_probe.cu
start=$(date +%s)
/tmp/mufu_probe "$out" | tee -a "$out/mufu_run.txt"
echo "probe: $(( $(date +%s) - start )) s" | tee -a "$out/mufu_run.txt"
# The tables go into the repository xz-compressed (sim/math/tables/).
python3 - "$out" <<'PY'
import lzma, os, sys
out = sys.argv[1]
for name in ["ex2_pos", "ex2_neg", "rcp", "rsq", "lg2_one", "lg2_half", "sin_quarter", "cos_quarter"]:
    raw = open(os.path.join(out, name + ".tbl"), "rb").read()
    with open(os.path.join(out, name + ".tbl.xz"), "wb") as f:
        f.write(lzma.compress(raw, preset=9 | lzma.PRESET_EXTREME))
    os.remove(os.path.join(out, name + ".tbl"))
    print(name, len(raw), "->", os.path.getsize(os.path.join(out, name + ".tbl.xz")))
# rcp.approx.ftz.f64's high words over [1, 2) (2^20), for the record.
raw = open(os.path.join(out, "rcp64_hi.bin"), "rb").read()
open(os.path.join(out, "rcp64_hi.bin.xz"), "wb").write(lzma.compress(raw, preset=9))
os.remove(os.path.join(out, "rcp64_hi.bin"))
PY
# One file for the eight tables (a device run returns at most eight files).
tar -cf "$out/tables.tar" -C "$out" $(cd "$out" && ls *.tbl.xz) && rm "$out"/*.tbl.xz
