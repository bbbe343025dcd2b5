#include "cost/train/layout_check.hpp"

#include <fmt/core.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace simt::cost {

namespace {

std::string divisors(int64_t n) {
  std::string o;
  for (int64_t d = 1; d <= n; ++d)
    if (n % d == 0) o += (o.empty() ? "" : ", ") + std::to_string(d);
  return o;
}

void check_model_split(const models::ModelConfig& m, int64_t tp, int64_t pp) {
  if (m.heads % tp != 0)
    throw std::invalid_argument(fmt::format(
        "tp {} does not divide the {} attention heads of {} (heads % tp must be 0: each GPU holds whole heads); "
        "tp can be {}",
        tp, m.heads, m.name, divisors(m.heads)));
  if (!m.is_mla() && m.kv_heads % tp != 0 && tp % m.kv_heads != 0)
    throw std::invalid_argument(fmt::format(
        "tp {} and the {} KV heads of {} do not fit: KV heads must split evenly (kv_heads % tp == 0) or be "
        "replicated evenly (tp % kv_heads == 0)",
        tp, m.kv_heads, m.name));
  if (m.layers % pp != 0)
    throw std::invalid_argument(fmt::format(
        "pp {} does not divide the {} layers of {} (layers % pp must be 0: every stage holds whole layers); "
        "pp can be {}",
        pp, m.layers, m.name, divisors(m.layers)));
}

}  // namespace

int64_t check_layout(const models::ModelConfig* model, int64_t gpus, int64_t tp, int64_t pp) {
  if (tp < 1 || pp < 1) throw std::invalid_argument(fmt::format("tp and pp must be >= 1 (tp {}, pp {})", tp, pp));
  if (gpus < 1) throw std::invalid_argument(fmt::format("the GPU count must be positive, got {}", gpus));
  if (gpus > kMaxGpus || tp > kMaxGpus || pp > kMaxGpus)
    throw std::invalid_argument(fmt::format(
        "{} GPUs (tp {}, pp {}) is beyond any cluster: at most {} accepted (the largest published clusters hold "
        "~100k GPUs)",
        gpus, tp, pp, kMaxGpus));
  if (gpus % (tp * pp) != 0)
    throw std::invalid_argument(fmt::format(
        "gpus must equal tp x pp x dp: {} GPUs is not a multiple of tp x pp = {} x {} = {}", gpus, tp, pp, tp * pp));
  if (model) check_model_split(*model, tp, pp);
  return gpus / (tp * pp);
}

void require_positive(double v, const std::string& what) {
  if (!std::isfinite(v) || v <= 0)
    throw std::invalid_argument(fmt::format("{} must be a positive finite number, got {}", what, v));
}

void require_non_negative(double v, const std::string& what) {
  if (!std::isfinite(v) || v < 0)
    throw std::invalid_argument(fmt::format("{} must be a finite number >= 0, got {}", what, v));
}

}  // namespace simt::cost
