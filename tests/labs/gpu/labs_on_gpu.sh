#!/usr/bin/env bash
# On a GPU machine (nvcc, ncu): every kernel lab's solution and starter built with nvcc
# from the same files `simt lab check` grades, run at each of the lab's cases, and the
# solution's launches profiled with Nsight Compute for the counters the labs grade.
# The simulator's side and the comparison: tests/labs/gpu/compare_labs.py.
#   usage: labs_on_gpu.sh OUT_DIR        (from the repository root)
set -uo pipefail
out=${1:?usage: labs_on_gpu.sh OUT_DIR}
mkdir -p "$out/bin"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,smsp__inst_executed.sum,gpu__time_duration.sum
flags=(-std=c++20 --fmad=false -arch=sm_90 -O3 -I labs/common)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/gpu.txt"
nvcc --version | tail -1 >> "$out/gpu.txt"
# Build everything first, in parallel (the machine has many cores), then run.
build() {  # build LAB ROLE SRC
  nvcc "${flags[@]}" -I "$1" "$1/$3" -o "$out/bin/$(basename "$1")-$2" 2> "$out/$(basename "$1")-$2.build.txt" ||
    echo "$(basename "$1") $2 build FAILED" >> "$out/summary.txt"
}
labs=()
for lab in labs/[0-9]*/; do
  lab=${lab%/}
  kind=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1])).get('kind','kernel'))" "$lab/checks.json")
  [ "$kind" = kernel ] || continue
  labs+=("$lab")
  read -r starter solution < <(python3 -c "import json,sys; c=json.load(open(sys.argv[1])); print(c['starter'], c['solution'])" "$lab/checks.json")
  build "$lab" solution "$solution" &
  build "$lab" starter "$starter" &
done
wait
for lab in "${labs[@]}"; do
  name=$(basename "$lab")
  for role in solution starter; do
    exe="$out/bin/$name-$role"
    [ -x "$exe" ] || continue
    python3 -c "import json,sys
for c in json.load(open(sys.argv[1]))['cases']: print(c['name'], ' '.join(f'{k}={v}' for k,v in c.get('args',{}).items()))" "$lab/checks.json" |
    while read -r case args; do
      # shellcheck disable=SC2086
      timeout 60 "$exe" $args > "$out/$name-$role-$case.txt" 2>&1
      echo "$name $role $case exit $?" >> "$out/summary.txt"
      if [ $role = solution ]; then
        # shellcheck disable=SC2086
        timeout 120 ncu --clock-control none --metrics "$metrics" --csv --page raw "$exe" $args > "$out/$name-$case.ncu.csv" 2> /dev/null
      fi
    done
  done
done
cat "$out/summary.txt"
