// Bytes each link between simulated GPUs carried: peer copies, kernels' accesses to a
// peer GPU's memory (sim/exec/devices.hpp) and the steps of NCCL's collectives (a ring
// all-reduce of S bytes over n GPUs sends 2(n-1)/n x S from every GPU to the next). `simt exec --gpus N` prints them at exit.
#pragma once
#include <map>
#include <utility>

namespace simt {

void add_link_bytes(int from_device, int to_device, double bytes);
// (from, to) -> bytes, for every pair that carried any.
std::map<std::pair<int, int>, double> link_bytes();

}  // namespace simt
