// The counters of a library GEMM, in closed form. A block computes a 128 x 128 tile
// of D (cuBLAS's usual tile on sm_90), streaming k in slices of 32 through shared
// memory: every block reads its 128 rows of op(A) and 128 columns of op(B) once,
// so A is read ceil(n/128) times and B ceil(m/128) times; C is read once when beta
// is not 0, D written once. Global loads and stores are 16 bytes per lane (512
// bytes, 16 sectors, per warp request). DRAM: each matrix once (the compulsory
// traffic, as the simulator's estimate counts it). FLOPs: m x n x k FFMA on the
// FP32 pipe, or 2 m n k tensor-core FLOPs for TF32 and fp16/bf16. Shared-memory
// traffic and the epilogue's arithmetic are not counted (a documented limit:
// docs/frontend.md, "cuBLAS").
#include "sim/libs/gemm_launch.hpp"

#include "sim/exec/executor.hpp"
#include "sim/state/launch_record.hpp"

namespace simt::libs {

namespace {

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Loads or stores of `bytes` contiguous bytes in 16-byte lanes.
void add_traffic(Counters& c, std::uint64_t bytes, bool store) {
  const std::uint64_t sectors = ceil_div(bytes, 32), requests = ceil_div(bytes, 512);
  c[store ? Counter::GlobalStSectors : Counter::GlobalLdSectors] += sectors;
  c[store ? Counter::GlobalStRequests : Counter::GlobalLdRequests] += requests;
  c[store ? Counter::GlobalStBytes : Counter::GlobalLdBytes] += bytes;
  c[Counter::WarpInst] += requests;
  c[Counter::ThreadInst] += 32 * requests;
}

}  // namespace

Counters gemm_counters(const GemmCall& g) {
  Counters c;
  const std::uint64_t m = std::uint64_t(g.m), n = std::uint64_t(g.n), k = std::uint64_t(g.k);
  const std::uint64_t tiles_m = ceil_div(m, kTileM), tiles_n = ceil_div(n, kTileN);
  for (int b = 0; b < g.batch; ++b) {
    const std::uint64_t a_bytes = m * k * elem_bytes(g.a.type), b_bytes = k * n * elem_bytes(g.b.type);
    const std::uint64_t d_bytes = m * n * elem_bytes(g.d.type);
    add_traffic(c, a_bytes * tiles_n + b_bytes * tiles_m, false);
    c[Counter::DramReadBytes] += a_bytes + b_bytes;
    if (g.beta != 0) {
      add_traffic(c, m * n * elem_bytes(g.c.type), false);
      c[Counter::DramReadBytes] += m * n * elem_bytes(g.c.type);
    }
    if (g.bias) add_traffic(c, m * elem_bytes(g.d.type) * tiles_n, false);
    add_traffic(c, d_bytes, true);
    c[Counter::DramWriteBytes] += d_bytes;
    if (g.math == GemmMath::Fp32) c[Counter::FFma] += m * n * k;
    if (g.math == GemmMath::Tf32) c[Counter::TensorTf32Flops] += 2 * m * n * k;
    if (g.math == GemmMath::Tensor16) c[Counter::Tensor16Flops] += 2 * m * n * k;
  }
  return c;
}

void record_gemm_launch(const GemmCall& g) {
  LaunchRecord r;
  r.kernel = g.api;
  r.grid = dim3(unsigned(ceil_div(std::uint64_t(g.n), kTileN)), unsigned(ceil_div(std::uint64_t(g.m), kTileM)),
                unsigned(g.batch));
  r.block = dim3(kGemmThreads, 1, 1);
  // Double-buffered slices of op(A) and op(B), as the occupancy model needs.
  r.static_shared_bytes = 2 * std::size_t(kTileK) * (kTileM * elem_bytes(g.a.type) + kTileN * elem_bytes(g.b.type));
  r.totals = gemm_counters(g);
  append_launch_record(std::move(r));
}

}  // namespace simt::libs
