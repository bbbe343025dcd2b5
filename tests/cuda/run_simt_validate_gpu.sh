#!/usr/bin/env bash
# The GPU half of `simt validate` for the examples and the front end's test programs, in one
# device run; compare here with `simt validate FILE --gpu-results DIR/NAME`
# (docs/validation/h200-simt-validate.md).
out=${OUT:-/tmp/out}; work=/tmp/vwork; mkdir -p $work
for f in examples/activations.cu examples/classic_reduce.cu examples/tutorial_idioms.cu \
         tests/frontend/{branch_barrier,constant_table,early_return,float_element,host_template_launch,launch_error_exit0,llmc_style,local_index_arrays,no_includes,printf_char_array,struct_through_pointer,ternary_sum,typedef_element}.cu; do
  name=$(basename $f .cu)
  timeout 120 bash program/validate_gpu.sh $work/$name $f > $work/$name.log 2>&1; echo "$name status $?" | tee -a $work/status.txt
done
timeout 120 bash program/validate_gpu.sh $work/include_dir_user tests/frontend/include_dir_user.cu -I tests/frontend/include_dir -DFACTOR=3 > $work/include_dir_user.log 2>&1; echo "include_dir_user status $?" | tee -a $work/status.txt
rm -f $work/*/gpu_prog $work/*/gpu_launch_digest.so
tar -czf $out/validate_gpu.tgz -C $work .
