#include "cost/train/ddp.hpp"

#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::cost {
namespace {

void require_positive(double v, const char* what) {
  if (!std::isfinite(v) || v <= 0) throw std::invalid_argument(fmt::format("{} must be > 0, got {}", what, v));
}

std::string explain(const DdpResult& r) {
  const DdpInput& in = r.in;
  std::string s;
  s += fmt::format("DDP gradient all-reduce over {} GPUs ({}, {}), {} buckets of {}\n", in.gpus, r.link,
                   to_string(in.algo), r.buckets.size(), format_bytes(in.bucket_bytes));
  s += fmt::format("  gradients = {:.4g} params x {} B = {}\n", in.params, in.grad_bytes_per_param,
                   format_bytes(r.grad_bytes));
  s += fmt::format("  ready_k   = T_bwd x (bytes through bucket k) / total   (uniform gradient production)\n");
  s += fmt::format("  start_k   = max(ready_k, end_(k-1)); end_k = start_k + allreduce(bucket_k)\n");
  s += fmt::format("  comm      = sum of bucket all-reduces = {} (one unbucketed all-reduce: {})\n",
                   format_seconds(r.comm_total_s), format_seconds(r.single_allreduce_s));
  s += fmt::format("  exposed   = max(0, end_last - T_bwd) = max(0, {} - {}) = {}\n",
                   format_seconds(r.buckets.empty() ? 0 : r.buckets.back().end_s), format_seconds(in.backward_s),
                   format_seconds(r.exposed_s));
  s += fmt::format("  step      = T_bwd + exposed = {} (no overlap: {}); {:.1f}% of communication hidden\n",
                   format_seconds(r.step_s), format_seconds(r.no_overlap_s), 100 * r.hidden_fraction);
  s += "  source    = Li et al. 2020, PyTorch Distributed (arXiv:2006.15704): buckets, 25 MB default;\n"
       "              all-reduce times from the alpha-beta model (`simt comm all-reduce --explain`)\n"
       "  caveat    = PyTorch's first bucket is smaller (1 MB) and gradients are not produced\n"
       "              uniformly (the last layers' come first); per-bucket latency makes tiny buckets slow.\n";
  return s;
}

}  // namespace

DdpResult ddp_overlap(const DdpInput& in, const LinkSpec& link) {
  require_positive(in.params, "params");
  require_positive(in.grad_bytes_per_param, "bytes per gradient");
  require_positive(in.bucket_bytes, "bucket size");
  require_positive(in.backward_s, "backward time");
  if (in.params != std::floor(in.params))
    throw std::invalid_argument(fmt::format("params must be a whole number, got {}", in.params));
  if (in.gpus < 2) throw std::invalid_argument(fmt::format("DDP needs at least 2 GPUs, got {}", in.gpus));
  DdpResult r;
  r.in = in;
  r.link = link.name;
  r.grad_bytes = in.params * in.grad_bytes_per_param;
  // A bucket larger than the gradients holds them all: one bucket of the gradients' size.
  r.in.bucket_bytes = std::min(in.bucket_bytes, r.grad_bytes);
  // Each bucket is one all-reduce: millions of them is a typo, not a model.
  if (r.grad_bytes / r.in.bucket_bytes > 1e6)
    throw std::invalid_argument(fmt::format("{} gradient bytes in {} buckets is over a million buckets",
                                            format_bytes(r.grad_bytes), format_bytes(in.bucket_bytes)));
  double filled = 0, comm_free = 0;
  while (filled < r.grad_bytes) {
    DdpBucket b;
    b.bytes = std::min(r.in.bucket_bytes, r.grad_bytes - filled);
    filled += b.bytes;
    b.ready_s = in.backward_s * filled / r.grad_bytes;
    b.start_s = std::max(b.ready_s, comm_free);
    double t = collective_time(Collective::all_reduce, b.bytes, in.gpus, link, in.algo).time_s;
    b.end_s = comm_free = b.start_s + t;
    r.comm_total_s += t;
    r.buckets.push_back(b);
  }
  r.single_allreduce_s = collective_time(Collective::all_reduce, r.grad_bytes, in.gpus, link, in.algo).time_s;
  r.exposed_s = std::max(0.0, r.buckets.back().end_s - in.backward_s);
  r.step_s = in.backward_s + r.exposed_s;
  r.no_overlap_s = in.backward_s + r.comm_total_s;
  // hidden = (comm - exposed) / comm, in [0, 1]. With one bucket (the bucket at
  // least as large as the gradients) nothing overlaps: exposed is that bucket's
  // whole all-reduce, and end - T_bwd may round a hair above it; never -0.0%.
  const double hidden = (r.comm_total_s - r.exposed_s) / r.comm_total_s;
  r.hidden_fraction = r.buckets.size() == 1 || !(hidden > 0) ? 0.0 : std::min(hidden, 1.0);
  r.explanation = explain(r);
  return r;
}

}  // namespace simt::cost
