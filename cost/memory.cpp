#include "cost/memory.hpp"

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

ActivationMemory activation_memory(const models::ModelConfig& m, const ActivationInput& in) {
  if (in.seq <= 0 || in.micro_batch <= 0 || in.tp < 1)
    throw std::invalid_argument("activation memory needs seq > 0, micro-batch > 0, tp >= 1");
  const double s = double(in.seq), b = double(in.micro_batch), h = double(m.d_model), a = double(m.heads),
               t = in.tp;
  const double sbh = s * b * h;
  const bool sp = in.sequence_parallel;
  ActivationMemory r;
  // Per layer: 34sbh for the linear layers, norms, GELU and dropout masks, plus
  // 5as^2b for the attention scores, softmax output and its dropout mask.
  switch (in.recompute) {
    case models::Recompute::None:
      if (sp) {
        r.per_layer = sbh / t * (34 + 5 * a * s / h);
        r.formula = "sbh/t * (34 + 5as/h)";
      } else {
        // Without SP the norms and dropouts (10sbh) are replicated on every TP rank.
        r.per_layer = sbh * (10 + 24 / t + 5 * a * s / (h * t));
        r.formula = "sbh * (10 + 24/t + 5as/(ht))";
      }
      break;
    case models::Recompute::Selective:  // the 5as^2b attention-core term is recomputed
      r.per_layer = sp ? 34 * sbh / t : sbh * (10 + 24 / t);
      r.formula = sp ? "34 sbh/t" : "sbh * (10 + 24/t)";
      break;
    case models::Recompute::Full:  // only each layer's 2-byte input is kept
      r.per_layer = sp ? 2 * sbh / t : 2 * sbh;
      r.formula = sp ? "2sbh/t" : "2sbh";
      break;
  }
  // With 1F1B pipelining the first stage holds p micro-batches of L/p layers:
  // L layers' worth whatever p is (Korthikanti et al. 2022, Sec. 4.2.3).
  r.total = r.per_layer * m.layers;
  r.plugged = fmt::format("s={} b={} h={} a={} t={} L={}: {:.4g} GB per layer x {} layers", s, b, h, a, t,
                          m.layers, r.per_layer / 1e9, m.layers);
  return r;
}

}  // namespace simt::cost
