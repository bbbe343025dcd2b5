// Transpose family: out (cols x rows) = in (rows x cols)^T, row-major.
//
// Versions, each a lesson on the previous one (simt list shows them too):
//   transpose_naive.cu    straight through global memory: coalesced reads, strided writes
//                         (32 sectors per store request)
//   transpose_shared.cu   through a 32x32 shared tile: both global sides coalesced, but
//                         the column read of the tile is a 32-way bank conflict
//   transpose_padded.cu   a 32x33 tile: the padding puts each column in 32 banks, 1 wavefront
//
// Run:  simt run transpose_shared --rows 1024 --cols 1024      (counters, check, time)
// CPU reference: Eigen's transpose, below. nvcc builds the same files unchanged.
//
// Host side shared by the transpose variants: out (cols x rows) = in (rows x
// cols)^T, both row-major. Every variant moves a 32 x 32 tile per block of
// 32 x 8 threads, each thread handling 4 rows of the tile (8 rows per pass),
// the arrangement of NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++".
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <stdexcept>
#include <vector>

#if !defined(__CUDACC__)
#include <Eigen/Dense>
#endif

constexpr int kTile = 32;       // tile edge; also the block's x extent (one warp per tile row)
constexpr int kBlockRows = 8;   // the block's y extent: the tile is covered in 4 passes

namespace transpose {

using namespace simt::kernels;

inline std::vector<Param> params() {
  return {{"rows", "1024", "rows of the input"}, {"cols", "1024", "columns of the input"}};
}

// Uploads the input, launches kernel over the tiles and returns the output.
template <class Kernel>
Outputs run(const Params& p, Kernel kernel) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  if (rows < 1 || cols < 1) throw std::invalid_argument("--rows and --cols must be positive");
  const std::size_t size = std::size_t(rows) * cols;
  const std::vector<float> in = test_values(size, 1);
  float *d_in, *d_out;
  cudaMalloc(&d_in, size * sizeof(float));
  cudaMalloc(&d_out, size * sizeof(float));
  cudaMemcpy(d_in, in.data(), size * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  kernel<<<grid, dim3(kTile, kBlockRows)>>>(d_in, d_out, rows, cols);
  std::vector<float> out(size);
  cudaMemcpy(out.data(), d_out, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return {{{"out", out}}};
}

#if !defined(__CUDACC__)
inline Check check(const Params& p, const Outputs& out) {
  const int rows = int(p.integer("rows")), cols = int(p.integer("cols"));
  using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const std::vector<float> in = test_values(std::size_t(rows) * cols, 1);
  std::vector<float> want(in.size());
  Eigen::Map<Matrix>(want.data(), cols, rows) = Eigen::Map<const Matrix>(in.data(), rows, cols).transpose();
  return compare(out.at("out").data, want, 0.0, "out = in^T");
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace transpose
