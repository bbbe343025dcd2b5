#include "cost/train/zero_comm.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cost {

CommPlan zero_comm(const ZeroCommInput& in, const LinkSpec& link) {
  if (in.stage < 0 || in.stage > 3)
    throw std::invalid_argument(fmt::format("ZeRO stage must be 0, 1, 2 or 3, got {}", in.stage));
  if (!std::isfinite(in.params) || in.params <= 0)
    throw std::invalid_argument(fmt::format("params must be > 0, got {}", in.params));
  if (in.params != std::floor(in.params))
    throw std::invalid_argument(fmt::format("params must be a whole number, got {}", in.params));
  if (!(in.bytes_per_element > 0)) throw std::invalid_argument("bytes per element must be > 0");
  CommPlan plan;
  plan.scheme = in.stage == 0 ? "data parallel (ZeRO-0)" : fmt::format("ZeRO-{}", in.stage);
  plan.per = "training step";
  plan.gpus = in.gpus;
  const double psi = in.params * in.bytes_per_element;
  switch (in.stage) {
    case 0:
      add_phase(plan, "gradients (backward)", Collective::all_reduce, psi, 1, link, in.algo);
      plan.notes.push_back("volume = 2(n-1)/n Psi ~ 2 Psi (ZeRO paper sec. 7.1: baseline DP)");
      break;
    case 1:
    case 2:
      add_phase(plan, "gradients (backward)", Collective::reduce_scatter, psi, 1, link, in.algo);
      add_phase(plan, "updated parameters", Collective::all_gather, psi, 1, link, in.algo);
      plan.notes.push_back("volume = 2(n-1)/n Psi ~ 2 Psi: same as DP (ZeRO paper sec. 7.2.1)");
      break;
    case 3:
      add_phase(plan, "parameters (forward)", Collective::all_gather, psi, 1, link, in.algo);
      add_phase(plan, "parameters (backward)", Collective::all_gather, psi, 1, link, in.algo);
      add_phase(plan, "gradients (backward)", Collective::reduce_scatter, psi, 1, link, in.algo);
      plan.notes.push_back("volume = 3(n-1)/n Psi ~ 3 Psi = 1.5x DP (ZeRO paper sec. 7.2.2)");
      break;
  }
  plan.notes.push_back(fmt::format("Psi = {:.4g} params x {} B; source: Rajbhandari et al. 2020, arXiv:1910.02054",
                                   in.params, in.bytes_per_element));
  plan.notes.push_back("caveat: ZeRO overlaps these with compute; prefetch hides much of stage 3's all-gathers");
  finish_explanation(plan);
  return plan;
}

}  // namespace simt::cost
