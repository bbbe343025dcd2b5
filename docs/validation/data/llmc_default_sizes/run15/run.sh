# 2026-12-05. llm.c dev/cuda from github:karpathy/llm.c HEAD f1e2ace651495b74ae22d45d1723443fd00ecd3a (exported with git archive to /tmp/llmc).
# build/llmc_run prepared with: cd /work/main && bash tests/cuda/run_llmc_default_sizes.sh prepare /tmp/llmc/dev/cuda build/llmc_run attention_backward
# (build/llmc_run = 56M; with the 13 MB tracked tree it exceeded the 64 MiB carry limit, so it was carried as
#  build/llmc_run.tar.xz made by: cd build && tar -cJf llmc_run.tar.xz llmc_run  -- byte-identical contents, extracted first on the device)
# Device: run tool, kind unset (got nvidia-h100-x1), carry ["build/llmc_run.tar.xz"], timeout_s 600. Exact command:
tar -xJf build/llmc_run.tar.xz -C build && L=$OUT; nproc > $L/machine.txt; nvidia-smi --query-gpu=name --format=csv >> $L/machine.txt; (cd build/llmc_run && JOBS=1 SIMT_OPTIONS=threads=16 LIMIT=585 OUT=$L bash run_llmc_default_sizes.sh "attention_backward 1") > $L/ab.out 2>&1; cp build/llmc_run/run_llmc_default_sizes.sh $L/ 2>/dev/null; ls $L
