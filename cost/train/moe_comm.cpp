#include "cost/train/moe_comm.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cost {

CommPlan moe_comm(const MoeCommInput& in, const LinkSpec& link) {
  for (double v : {in.tokens, in.hidden, in.capacity_factor, in.bytes_per_element})
    if (!std::isfinite(v) || v <= 0)
      throw std::invalid_argument("tokens, hidden, capacity factor and bytes must be > 0");
  if (in.tokens != std::floor(in.tokens) || in.hidden != std::floor(in.hidden) || in.tokens > 1e15 ||
      in.hidden > 1e15)
    throw std::invalid_argument(
        fmt::format("tokens and hidden must be whole numbers (at most 1e15), got {:g} and {:g}", in.tokens, in.hidden));
  if (in.top_k < 1) throw std::invalid_argument(fmt::format("top-k must be >= 1, got {}", in.top_k));
  if (in.ep < 2) throw std::invalid_argument(fmt::format("expert parallelism needs ep >= 2, got {}", in.ep));
  if (in.layers < 1 || in.layers > 100000)
    throw std::invalid_argument(fmt::format("layers must be between 1 and 100000, got {}", in.layers));
  CommPlan plan;
  plan.scheme = "MoE expert parallel";
  plan.per = in.layers == 1 ? "MoE layer" : fmt::format("{} MoE layers", in.layers);
  plan.gpus = in.ep;
  const double bytes = in.tokens * in.top_k * in.hidden * in.bytes_per_element * in.capacity_factor;
  add_phase(plan, "forward: dispatch tokens to experts", Collective::all_to_all, bytes, in.layers, link, in.algo);
  add_phase(plan, "forward: combine expert outputs", Collective::all_to_all, bytes, in.layers, link, in.algo);
  if (in.training) {
    add_phase(plan, "backward: gradients of combine", Collective::all_to_all, bytes, in.layers, link, in.algo);
    add_phase(plan, "backward: gradients of dispatch", Collective::all_to_all, bytes, in.layers, link, in.algo);
  }
  plan.notes.push_back(fmt::format("S = tokens x k x h x bytes x capacity = {:.4g} x {} x {:.4g} x {} x {}", in.tokens,
                                   in.top_k, in.hidden, in.bytes_per_element, in.capacity_factor));
  plan.notes.push_back("source: GShard (arXiv:2006.16668), Switch Transformer (arXiv:2101.03961): dispatch + combine");
  plan.notes.push_back("caveat: assumes uniform routing; hot experts make the busiest GPU's link the bound");
  finish_explanation(plan);
  return plan;
}

}  // namespace simt::cost
