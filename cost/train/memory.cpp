#include "cost/train/memory.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

StateBytes state_bytes(int bytes_per_param) {
  if (bytes_per_param == 16) return {2, 2, 12};
  if (bytes_per_param == 18) return {2, 4, 12};
  throw std::invalid_argument(fmt::format("bytes per parameter must be 16 or 18, got {}", bytes_per_param));
}

ModelStateMemory model_state_memory(double params, const ParallelLayout& l, int bytes_per_param) {
  if (params <= 0) throw std::invalid_argument("parameter count must be positive");
  if (l.tp < 1 || l.pp < 1 || l.dp < 1)
    throw std::invalid_argument(fmt::format("parallel degrees must be >= 1 (tp {}, pp {}, dp {})", l.tp, l.pp, l.dp));
  if (l.zero_stage < 0 || l.zero_stage > 3)
    throw std::invalid_argument(fmt::format("ZeRO stage must be 0, 1, 2 or 3, got {}", l.zero_stage));
  const StateBytes b = state_bytes(bytes_per_param);
  ModelStateMemory m;
  m.params_per_gpu = params / (double(l.tp) * l.pp);
  const double psi = m.params_per_gpu, nd = l.dp;
  // Stage 1 shards optimizer states over the data-parallel ranks, stage 2 also the
  // gradients, stage 3 also the weights (Rajbhandari et al. 2020, Sec. 5 and Fig. 1).
  m.optimizer = b.optimizer * psi / (l.zero_stage >= 1 ? nd : 1);
  m.gradients = b.gradients * psi / (l.zero_stage >= 2 ? nd : 1);
  m.weights = b.weights * psi / (l.zero_stage >= 3 ? nd : 1);
  return m;
}

}  // namespace simt::cost
