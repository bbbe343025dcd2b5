# 2026-12-06 (evening), tree 5a25761 (the plain twin's loop in registers, faster divergent grouping).
# build/llmc_run prepared here with:
#   git -C <llm.c f1e2ace651495b74ae22d45d1723443fd00ecd3a> archive HEAD dev/cuda | tar -x -C /tmp/llmc
#   bash tests/cuda/run_llmc_default_sizes.sh prepare /tmp/llmc/dev/cuda build/llmc_run attention_backward
#   build/cli/simt cc tests/bench/every_head_sweep.cu -o build/llmc_run/every_head_sweep
#   cd build && tar -cJf llmc_run.tar.xz llmc_run
# Device: run tool, kind unset (got an H200 host: 16 Xeon cores, 300 MiB L3), carry ["build/llmc_run.tar.xz"],
# timeout_s 600, 496 s. Exact command:
tar -xJf build/llmc_run.tar.xz -C build && cd build/llmc_run && L=$PWD/lib && (nproc; lscpu | grep -E "Model name|MHz|Thread|Socket|L3|NUMA node0"; free -g | head -2) > $OUT/machine.txt; b() { SIMT_OPTIONS="races=off:threads=$1:$2" $L/ld-linux-x86-64.so.2 --library-path $L ./every_head_sweep --heads 8 --rows 256 --block 64 --grid-rows $3 2>/dev/null; }; S=sample_probe=0.002:sample_budget=0.01; { echo "counted $(b 1 exact=1 1)"; echo "sampled1 $(b 1 $S 8)"; echo "sampled4 $(b 1 $S 32)"; echo "t16_counted $(b 16 exact=1 16)"; echo "t16_sampled1 $(b 16 $S 64)"; echo "t16_sampled4 $(b 16 $S 256)"; } > $OUT/sweep.txt 2>&1; cat $OUT/sweep.txt; JOBS=1 SIMT_OPTIONS=threads=16 LIMIT=460 OUT=$OUT bash run_llmc_default_sizes.sh "attention_backward 1" > $OUT/ab.out 2>&1; tail -5 $OUT/attention_backward_k1.log
