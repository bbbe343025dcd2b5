// The numbers of simtlab's GEMMs: each batch's op(A) and op(B) are read from
// device memory into float matrices (16-bit and TF32 inputs rounded as the GPU
// reads them), multiplied by Eigen in float, scaled, given the epilogue, and
// written back in D's type with round-to-nearest. cuBLAS's reduction order is not
// published: results agree with cuBLAS within a tolerance, not bit for bit
// (docs/validation/h200-cudalibs.md).
#include "sim/shortcuts/launch.hpp"
#include "sim/libs/gemm.hpp"

#include "sim/exec/executor.hpp"
#include "sim/libs/gemm_launch.hpp"
#include "sim/math/narrow_float.h"
#include "sim/libs/tf32.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/libs/gemm_repeat.hpp"
#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/memory/global_memory.hpp"

#include <Eigen/Core>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>
#include <vector>

namespace simt::libs {

namespace {

float load(const void* base, long long i, ElemType t) {
  if (t == ElemType::F32) return static_cast<const float*>(base)[i];
  const std::uint16_t h = static_cast<const std::uint16_t*>(base)[i];
  return float(cuda::narrow::to_double(h, t == ElemType::F16 ? cuda::narrow::kHalf : cuda::narrow::kBf16));
}
void store(void* base, long long i, ElemType t, float v) {
  if (t == ElemType::F32) static_cast<float*>(base)[i] = v;
  else  // round to nearest even, as cuBLAS writes 16-bit results
    static_cast<std::uint16_t*>(base)[i] =
        cuda::narrow::from_float(v, t == ElemType::F16 ? cuda::narrow::kHalf : cuda::narrow::kBf16);
}

// Whether the rows x cols matrix (and its batches) lies inside one allocation.
bool inside_device_memory(const MatrixArg& x, long long rows, long long cols, int batch) {
  if (rows == 0 || cols == 0) return true;
  const long long last = (batch - 1) * x.stride + (cols - 1) * x.ld + rows;
  const auto addr = reinterpret_cast<std::uintptr_t>(x.ptr);
  return x.ptr && GlobalMemory::instance().find(addr, std::size_t(last) * elem_bytes(x.type)) != nullptr;
}

// op(X) as a float matrix: rows x cols after the transpose.
Eigen::MatrixXf read_op(const MatrixArg& x, int batch, bool trans, int rows, int cols, bool tf32) {
  Eigen::MatrixXf out(rows, cols);
  const char* base = static_cast<const char*>(x.ptr) + std::size_t(batch) * x.stride * elem_bytes(x.type);
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i) {
      const float v = load(base, trans ? i * x.ld + j : j * x.ld + i, x.type);
      out(i, j) = tf32 ? round_to_tf32(v) : v;
    }
  return out;
}

// op(A) x op(B) in column blocks of a fixed width, spread over the simulator's
// workers (--threads, the option threads). Every block has the same shape whatever the
// number of workers, so the result does not depend on the host's cores.
Eigen::MatrixXf product(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b) {
  constexpr Eigen::Index kCols = 256;
  Eigen::MatrixXf p(a.rows(), b.cols());
  const int blocks = int((b.cols() + kCols - 1) / kCols);
  std::atomic<int> next{0};
  auto work = [&] {
    for (int i; (i = next++) < blocks;) {
      const Eigen::Index first = i * kCols, width = std::min(kCols, b.cols() - first);
      p.middleCols(first, width).noalias() = a * b.middleCols(first, width);
    }
  };
  const unsigned threads = std::min<unsigned>(std::max(1u, worker_count()), unsigned(std::max(blocks, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return p;
}

// cuBLASLt's GELU epilogue: the tanh form.
float gelu(float x) { return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x))); }

std::string check(const GemmCall& g) {
  if (g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 1) return "negative size or batch count";
  const long long a_rows = g.trans_a ? g.k : g.m, a_cols = g.trans_a ? g.m : g.k;
  const long long b_rows = g.trans_b ? g.n : g.k, b_cols = g.trans_b ? g.k : g.n;
  if (g.a.ld < std::max(1LL, a_rows)) return fmt::format("lda = {} is less than {}", g.a.ld, a_rows);
  if (g.b.ld < std::max(1LL, b_rows)) return fmt::format("ldb = {} is less than {}", g.b.ld, b_rows);
  if (g.d.ld < std::max(1, g.m)) return fmt::format("ldc = {} is less than m = {}", g.d.ld, g.m);
  if (!inside_device_memory(g.a, a_rows, a_cols, g.batch)) return "A is not inside one device allocation";
  if (!inside_device_memory(g.b, b_rows, b_cols, g.batch)) return "B is not inside one device allocation";
  if (!inside_device_memory(g.d, g.m, g.n, g.batch)) return "C/D is not inside one device allocation";
  if (g.beta != 0 && !inside_device_memory(g.c, g.m, g.n, g.batch)) return "C is not inside one device allocation";
  if (g.bias && !inside_device_memory(MatrixArg{g.bias, g.d.type, g.m, 0}, g.m, 1, 1)) return "the bias is not device memory";
  return {};
}

void compute(const GemmCall& g) {
  const bool tf32 = g.math == GemmMath::Tf32;
  for (int i = 0; i < g.batch; ++i) {
    Eigen::MatrixXf p = Eigen::MatrixXf::Zero(g.m, g.n);
    if (g.k > 0) p = product(read_op(g.a, i, g.trans_a, g.m, g.k, tf32), read_op(g.b, i, g.trans_b, g.k, g.n, tf32));
    char* d = static_cast<char*>(const_cast<void*>(g.d.ptr)) + std::size_t(i) * g.d.stride * elem_bytes(g.d.type);
    const char* c = static_cast<const char*>(g.c.ptr) + std::size_t(i) * g.c.stride * elem_bytes(g.c.type);
    for (int col = 0; col < g.n; ++col)
      for (int row = 0; row < g.m; ++row) {
        float v = g.alpha * p(row, col);
        if (g.beta != 0) v += g.beta * load(c, col * g.c.ld + row, g.c.type);
        if (g.bias && (g.epilogue == Epilogue::Bias || g.epilogue == Epilogue::GeluBias)) v += load(g.bias, row, g.d.type);
        if (g.epilogue == Epilogue::Gelu || g.epilogue == Epilogue::GeluBias) v = gelu(v);
        store(d, col * g.d.ld + row, g.d.type, v);
      }
  }
}

// A product queued behind deferred launches (sim/shortcuts/deferred_launches.hpp): it
// reads what they write, and runs when they do.
class DeferredGemm final : public DeferredWork {
 public:
  DeferredGemm(const GemmCall& on_host, std::size_t record) : call_(on_host), record_(record) {}
  void run() override {
    compute(call_);
    mutable_launch_record(record_).ran_late = true;
  }

 private:
  GemmCall call_;
  std::size_t record_;
};

}  // namespace

int gemm(const GemmCall& g) {
  DeferredLaunches& deferred = DeferredLaunches::instance();
  if (deferred.holding_releases()) deferred.run_all();  // a product on a freed buffer must be refused
  if (std::string why = check(g); !why.empty()) {
    fmt::print(stderr, "simtlab: {}: {} (no product computed)\n", g.api, why);
    return 7;  // CUBLAS_STATUS_INVALID_VALUE
  }
  // The matrices' bytes through their host mapping (the device view may be guarded).
  const GlobalMemory& gm = GlobalMemory::instance();
  GemmCall h = g;
  h.a.ptr = gm.host_address(g.a.ptr), h.b.ptr = gm.host_address(g.b.ptr);
  h.c.ptr = gm.host_address(g.c.ptr), h.d.ptr = gm.host_address(g.d.ptr);
  h.bias = gm.host_address(g.bias);
  // The same product again, as a kernel's identical launch: not computed again when
  // nothing changed its buffers (a benchmark's repeats), deferred when its output
  // was changed since (a bias added to it in place) and nothing has read it yet.
  RepeatLaunches& repeats = RepeatLaunches::instance();
  LaunchKey key = gemm_key(g);
  const LaunchFootprint footprint = gemm_footprint(g);
  if (auto prev = repeats.repeat_of(key)) {
    append_repeat_record(*prev);
    if (prev->defer) {
      const std::size_t index = launch_records().size() - 1;
      mutable_launch_record(index).deferred = true;
      repeats.deferred(footprint);
      deferred.add(std::make_unique<DeferredGemm>(h, index), footprint);
    }
  } else if (deferred.conflicts_with(footprint) && repeats.mode() == RepeatMode::Defer) {
    // A new product on what deferred launches write: its counters and time follow
    // from its shape, so it is recorded now and computed in its turn, behind them.
    record_gemm_launch(g);
    const std::size_t index = launch_records().size() - 1;
    mutable_launch_record(index).deferred = true;
    repeats.executed(std::move(key), index, true, {}, footprint, true);
    deferred.add(std::make_unique<DeferredGemm>(h, index), footprint);
  } else {
    if (deferred.conflicts_with(footprint)) deferred.run_all();
    compute(h);
    record_gemm_launch(g);
    if (repeats.mode() != RepeatMode::Never)
      repeats.executed(std::move(key), launch_records().size() - 1, true, {}, footprint, true);
  }
  note_launch_result(0, g.stream);  // on its stream's timeline, like a kernel
  return 0;
}

}  // namespace simt::libs
