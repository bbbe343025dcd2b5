#!/usr/bin/env bash
# On the H200, in one device run: the course HW4 driver built by nvcc (digests, ncu:
# tests/course/hw4/gpu_hw4.sh), the GPU half of `simt validate` for BlockRadixSort,
# BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, __trap() and built-in names used as host locals,
# and the 4096^3 cuBLAS GEMMs under ncu. Results: docs/validation/h200-libs-hw4.md.
#
#   usage: run_h200_libs_hw4_gpu.sh HW4_FILLED   (HW4_FILLED: made by tests/course/hw4/fill_hw4.sh; writes $OUT)
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv > "$out/gpu.txt" 2>&1
nvcc --version | tail -1 >> "$out/gpu.txt"
w=/tmp/w; mkdir -p $w
bash tests/course/hw4/gpu_hw4.sh "${1:?usage: run_h200_libs_hw4_gpu.sh HW4_FILLED}" $w/hw4out > "$out/hw4.log" 2>&1 &
for f in tests/libs/cub_radix_sort.cu tests/libs/cub_reduce_commutative.cu tests/frontend/trap.cu tests/frontend/builtin_names_as_locals.cu; do
  n=$(basename $f .cu)
  ( timeout 200 bash program/validate_gpu.sh $w/v/$n $f > $w/v_$n.log 2>&1; echo "status $?" >> $w/v_$n.log; rm -f $w/v/$n/gpu_prog $w/v/$n/gpu_launch_digest.so ) &
done
wait
nvcc -std=c++20 -O2 -arch=sm_90 -o $w/gemm4096 tests/libs/cublas_gemm_4096.cu -lcublas -lcublasLt > $w/gemm_build.log 2>&1
timeout 200 ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,sm__inst_executed_pipe_tensor_op_hmma.sum $w/gemm4096 > $w/ncu_gemm4096.csv 2> $w/ncu_gemm4096.err
cp $w/hw4out/hw4_gpu.tgz "$out/" 2>/dev/null
tar -czf "$out/validate.tgz" -C $w v v_cub_radix_sort.log v_cub_reduce_commutative.log v_trap.log v_builtin_names_as_locals.log ncu_gemm4096.csv ncu_gemm4096.err gemm_build.log
cat "$out/hw4.log" | tail -5
for l in $w/v_*.log; do echo "== $l"; tail -3 $l; done
for n in trap builtin_names_as_locals; do echo "== $n stdout"; cat $w/v/$n/gpu.stdout; done
head -c 1500 $w/ncu_gemm4096.csv
