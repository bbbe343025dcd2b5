// One simulated launch per library GEMM, with the counters of the tiled GEMM it
// stands for (closed form; see gemm_launch.cpp).
#pragma once
#include "sim/count/counters.hpp"
#include "sim/libs/gemm.hpp"

namespace simt::libs {

// The tile a cuBLAS-style kernel gives each block, and its threads.
inline constexpr int kTileM = 128, kTileN = 128, kTileK = 32, kGemmThreads = 256;

Counters gemm_counters(const GemmCall& call);
void record_gemm_launch(const GemmCall& call);

}  // namespace simt::libs
