#include "sim/libs/gemm_repeat.hpp"

#include <algorithm>
#include <cstring>

namespace simt::libs {

namespace {

// Appends a value's bytes: the key holds fields one by one, never a struct's padding.
template <class T> void put(std::vector<unsigned char>& out, const T& v) {
  const auto* p = reinterpret_cast<const unsigned char*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}

void put_matrix(std::vector<unsigned char>& out, const MatrixArg& m) {
  put(out, m.ptr), put(out, m.type), put(out, m.ld), put(out, m.stride);
}

// The sectors a rows x cols matrix (column-major, ld, batch strides) may touch: one
// run from its first byte to its last, a superset of what the product reads.
void add_span(SectorRuns& runs, const MatrixArg& m, long long rows, long long cols, int batch) {
  if (!m.ptr || rows <= 0 || cols <= 0) return;
  const auto begin = reinterpret_cast<std::uintptr_t>(m.ptr);
  const std::uint64_t bytes =
      (std::uint64_t(batch - 1) * std::uint64_t(m.stride) + std::uint64_t(cols - 1) * std::uint64_t(m.ld) + rows) *
      elem_bytes(m.type);
  runs.push_back(sectors_of_bytes(begin, bytes));
}

SectorRuns merged(SectorRuns runs) {
  std::sort(runs.begin(), runs.end(), [](const SectorRun& a, const SectorRun& b) { return a.begin < b.begin; });
  SectorRuns out;
  for (const SectorRun& r : runs)
    if (!out.empty() && r.begin <= out.back().end) out.back().end = std::max(out.back().end, r.end);
    else out.push_back(r);
  return out;
}

}  // namespace

LaunchKey gemm_key(const GemmCall& g) {
  LaunchKey key;
  key.kernel = reinterpret_cast<const void*>(&gemm);
  key.grid = dim3(unsigned(g.m), unsigned(g.n), unsigned(g.k));
  key.block = dim3(unsigned(g.batch), 1, 1);
  key.stream = g.stream;
  auto& a = key.args;
  put(a, g.api), put(a, g.trans_a), put(a, g.trans_b), put(a, g.alpha), put(a, g.beta);
  put_matrix(a, g.a), put_matrix(a, g.b), put_matrix(a, g.c), put_matrix(a, g.d);
  put(a, g.math), put(a, g.epilogue), put(a, g.bias);
  return key;
}

LaunchFootprint gemm_footprint(const GemmCall& g) {
  const long long a_rows = g.trans_a ? g.k : g.m, a_cols = g.trans_a ? g.m : g.k;
  const long long b_rows = g.trans_b ? g.n : g.k, b_cols = g.trans_b ? g.k : g.n;
  SectorRuns inputs, written;
  add_span(inputs, g.a, a_rows, a_cols, g.batch);
  add_span(inputs, g.b, b_rows, b_cols, g.batch);
  if (g.beta != 0) add_span(inputs, g.c, g.m, g.n, g.batch);
  if (g.bias) add_span(inputs, MatrixArg{g.bias, g.d.type, g.m, 0}, g.m, 1, 1);
  add_span(written, g.d, g.m, g.n, g.batch);
  LaunchFootprint fp;
  fp.written = merged(written);
  fp.read_then_written = overlaps(merged(inputs), fp.written);
  inputs.insert(inputs.end(), written.begin(), written.end());
  fp.touched = merged(std::move(inputs));
  return fp;
}

}  // namespace simt::libs
