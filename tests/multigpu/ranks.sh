#!/bin/sh
# One process per rank (simt exec --ranks N, started by mpirun): tests/multigpu/mpi_ranks.cu
# (MPI_Init, the ncclUniqueId through MPI_Bcast, ncclCommInitRank, every collective and
# grouped send/receive) passes every check on every rank with 2 and 3 ranks, the 2-rank
# calibration all-reduce hashes as on two H200s, the ranks' timelines merge into one, and
# no shared-memory file is left behind. Usage: ranks.sh SIMT
set -e
simt=$1
here=$(cd "$(dirname "$0")" && pwd)
want=$(awk '$1 == "RESULT" && $2 == "allreduce_sum_rank0" { print $3 }' "$here/../../docs/validation/data/nccl_h200x2_allreduce.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
if command -v mpirun > /dev/null; then
  # One process per rank under mpirun: every check on every rank, and on 2 ranks the
  # calibration all-reduce hashes as on two H200s.
  for ranks in 2 3; do
    "$simt" exec --ranks "$ranks" "$here/mpi_ranks.cu" --timeline ranks.json > out.txt 2> err.txt || { cat out.txt err.txt; exit 1; }
    grep -q "^PASS: 0 checks failed" out.txt || { cat out.txt err.txt; exit 1; }
    [ "$(grep -c '\] PASS' out.txt)" -ge $((ranks * 6)) ] || { echo "--ranks $ranks: too few checks ran"; cat out.txt; exit 1; }
    grep -q "======== rank $((ranks - 1)) ========" err.txt || { echo "--ranks $ranks: no report of the last rank"; cat err.txt; exit 1; }
    n=$(/usr/bin/python3 -c "import json,sys; t=json.load(open('ranks.json')); print(len({e['pid'] for e in t['traceEvents'] if e.get('cat') == 'nccl'}))")
    [ "$n" = "$ranks" ] || { echo "--ranks $ranks: the merged timeline has NCCL work on $n GPUs"; exit 1; }
    echo "--ranks $ranks: every check passed on every rank; one merged timeline"
    if [ "$ranks" = 2 ]; then
      got=$(awk '$3 == "RESULT" && $4 == "allreduce_sum_rank1" { print $5 }' out.txt)
      [ "$got" = "$want" ] || { echo "--ranks 2: all-reduce hash $got, the H200s' $want"; cat out.txt; exit 1; }
      echo "--ranks 2: all-reduce hash $got as on two H200s"
    fi
  done
  ls /dev/shm | grep -q "^simt-" && { echo "shared-memory files left behind:"; ls /dev/shm; exit 1; }
  echo "no shared-memory files left behind"
else
  echo "mpirun not installed: --ranks not tested (scripts/install-deps.sh installs it)"
  exit 77
fi
