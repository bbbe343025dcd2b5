# 2026-12-05. threads=8: 7 counted blocks in one round (sampled launch: s=27 for 192 blocks over 8 workers).
# build/llmc_run.tar.xz is run15's prepared folder packed (see run15/run.sh for how build/llmc_run was prepared and packed).
# Device: run tool, kind unset (got nvidia-h100-x1), carry ["build/llmc_run.tar.xz"], timeout_s 600. Exact command:
tar -xJf build/llmc_run.tar.xz -C build && L=$OUT; nproc > $L/machine.txt; nvidia-smi --query-gpu=name --format=csv >> $L/machine.txt; (cd build/llmc_run && JOBS=1 SIMT_OPTIONS=threads=8 LIMIT=585 OUT=$L bash run_llmc_default_sizes.sh "attention_backward 1") > $L/ab.out 2>&1; ls $L
