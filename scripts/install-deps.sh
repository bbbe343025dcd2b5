#!/usr/bin/env bash
# Installs the Debian packages simtlab builds with, skipping those already present.
set -euo pipefail
packages=(build-essential cmake libeigen3-dev libfmt-dev libcli11-dev doctest-dev liblzma-dev
          libboost-context-dev nlohmann-json3-dev libxxhash-dev python3-matplotlib python3-numpy binutils
          clang-14 llvm-14-dev libomp-14-dev libclang-rt-14-dev  # clang + LLVM: the compiler front end (sim/compiler); OpenMP for host code; libFuzzer (tests/adversarial)
          openmpi-bin libopenmpi-dev)  # simt exec --ranks N: one process per rank (mpirun), programs that call MPI
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
