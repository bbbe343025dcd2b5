// Batched matmul with shared-memory tiles: driver and registration (the kernel is in matmul_tiled.cuh).
#include "kernels/harness.hpp"
#include "kernels/matmul_common.cuh"
#include "kernels/matmul_tiled.cuh"

namespace {

using namespace simt::kernels;

template <int TILE>
void launch_tiled(const float* A, const float* B, float* C, matmul::Problem pr) {
  const dim3 grid((pr.n + TILE - 1) / TILE, (pr.m + TILE - 1) / TILE, pr.batch);
  matmul_tiled<TILE><<<grid, dim3(TILE, TILE)>>>(A, B, C, pr.m, pr.n, pr.k);
}

Outputs run(const Params& p) {
  const long long tile = p.integer("tile");
  if (tile != 16 && tile != 32) throw std::invalid_argument("--tile must be 16 or 32");
  return matmul::run(p, tile == 16 ? launch_tiled<16> : launch_tiled<32>);
}

std::vector<Param> tiled_params() {
  std::vector<Param> ps = matmul::params();
  ps.push_back({"tile", "32", "tile edge, 16 or 32 (the block is tile x tile threads)"});
  return ps;
}

Registration reg({"matmul_tiled", "batched C = A @ B with TILE x TILE shared-memory tiles (TILE 16 or 32)",
                  tiled_params(), run, matmul::check});

}  // namespace
