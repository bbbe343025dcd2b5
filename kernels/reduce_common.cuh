// Reduction family: the sum of a vector (Mark Harris, "Optimizing Parallel
// Reduction in CUDA"), each version one of his steps:
//   reduce_interleaved_divergent.cu  tid % (2s) == 0: half the lanes idle, divergent warps
//   reduce_interleaved_strided.cu    index 2*s*tid: no divergence, but shared bank conflicts
//   reduce_sequential.cu             tid < s: no divergence, no conflicts
//   reduce_warp_shuffle.cu           __shfl_down_sync within warps, one shared value per warp
// (reduce_dim.cu reduces one dimension of a tensor, MiniTorch's tensor_reduce.)
//
// Run:  simt run reduce_sequential --n 1048576 --block 256
// CPU reference: Eigen sums, below; the inputs are exact in any summation order,
// so the check requires equality.
//
// Host side shared by the vector-sum reductions (Mark Harris, "Optimizing
// Parallel Reduction in CUDA"). Each kernel reduces one block's slice of the
// input to a single partial sum; the driver launches it again over the
// partials until one value is left, so every pass runs the kernel under study.
// The summation order is fixed by the code: the same bits on any GPU.
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <stdexcept>
#include <utility>
#include <vector>

#if !defined(__CUDACC__)
#include <Eigen/Dense>
#endif

namespace reduce {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"n", "1048576", "number of elements"}, {"block", "256", "threads per block (a power of two, 32..1024)"}};
}

// kernel(in, out, n) writes one partial per block; it gets `shared_floats(block)`
// floats of dynamic shared memory. Returns the first pass's partials and the sum.
template <class Kernel, class SharedFloats>
Outputs run(const Params& p, Kernel kernel, SharedFloats shared_floats) {
  int n = int(p.integer("n"));
  const int block = int(p.integer("block"));
  if (n < 1) throw std::invalid_argument("--n must be positive");
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw std::invalid_argument("--block must be a power of two from 32 to 1024");
  const std::vector<float> in = test_values(n, 1);
  float *d_in, *d_out;
  const int first_blocks = (n + block - 1) / block;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, first_blocks * sizeof(float));
  cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> block_sums(first_blocks);
  for (bool first = true; first || n > 1; first = false) {
    const int blocks = (n + block - 1) / block;
    kernel<<<blocks, block, shared_floats(block) * sizeof(float)>>>(d_in, d_out, n);
    if (first) cudaMemcpy(block_sums.data(), d_out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
    std::swap(d_in, d_out);  // this pass's partials are the next pass's input
    n = blocks;
  }
  std::vector<float> sum(1);
  cudaMemcpy(sum.data(), d_in, sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return {{{"block_sums", block_sums}, {"sum", sum}}};
}

#if !defined(__CUDACC__)
// The inputs are multiples of 1/64 and every partial sum stays below 2^18 in
// magnitude, so float sums are exact in any order: equality is required.
inline Check check(const Params& p, const Outputs& out) {
  const int n = int(p.integer("n")), block = int(p.integer("block"));
  const std::vector<float> in = test_values(n, 1);
  const Eigen::Map<const Eigen::VectorXf> x(in.data(), n);
  std::vector<float> block_sums;
  for (int start = 0; start < n; start += block) block_sums.push_back(x.segment(start, std::min(block, n - start)).sum());
  Check c = compare(out.at("block_sums").data, block_sums, 0.0, "first-pass block sums");
  if (!c.ok) return c;
  Check total = compare(out.at("sum").data, {float(x.cast<double>().sum())}, 0.0, "sum");
  total.detail = c.detail + "; " + total.detail;
  return total;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

inline int one_per_thread(int block) { return block; }

}  // namespace reduce
