#include "cost/train/tp_comm.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cost {

CommPlan tp_comm(const TpCommInput& in, const LinkSpec& link) {
  for (double v : {in.batch, in.seq, in.hidden, in.bytes_per_element})
    if (!std::isfinite(v) || v <= 0) throw std::invalid_argument("batch, seq, hidden and bytes must be > 0");
  for (double v : {in.batch, in.seq, in.hidden})
    if (v != std::floor(v) || v > 1e15)
      throw std::invalid_argument(fmt::format("batch, seq and hidden must be whole numbers (at most 1e15), got {:g}, "
                                              "{:g}, {:g}",
                                              in.batch, in.seq, in.hidden));
  if (in.tp < 2) throw std::invalid_argument(fmt::format("tensor parallelism needs tp >= 2, got {}", in.tp));
  if (std::fmod(in.hidden, double(in.tp)) != 0)
    throw std::invalid_argument(fmt::format(
        "tp {} does not divide the hidden size {:g} (hidden % tp must be 0: each GPU holds hidden/tp columns of "
        "every projection)",
        in.tp, in.hidden));
  if (in.heads < 0 || (in.heads > 0 && in.heads % in.tp != 0))
    throw std::invalid_argument(fmt::format(
        "tp {} does not divide the {} attention heads (heads % tp must be 0: each GPU holds whole heads)", in.tp,
        in.heads));
  if (in.layers < 1 || in.layers > 100000)
    throw std::invalid_argument(fmt::format("layers must be between 1 and 100000, got {}", in.layers));
  CommPlan plan;
  plan.scheme = in.sequence_parallel ? "tensor + sequence parallel (Megatron-LM)" : "tensor parallel (Megatron-LM)";
  plan.per = in.layers == 1 ? "layer" : fmt::format("{} layers", in.layers);
  plan.gpus = in.tp;
  const double act = in.batch * in.seq * in.hidden * in.bytes_per_element;
  const int fwd = 2 * in.layers, bwd = in.training ? 2 * in.layers : 0;
  if (in.sequence_parallel) {
    add_phase(plan, "forward: all-gather before attn/MLP", Collective::all_gather, act, fwd, link, in.algo);
    add_phase(plan, "forward: reduce-scatter after attn/MLP", Collective::reduce_scatter, act, fwd, link, in.algo);
    if (bwd) {
      add_phase(plan, "backward: all-gather", Collective::all_gather, act, bwd, link, in.algo);
      add_phase(plan, "backward: reduce-scatter", Collective::reduce_scatter, act, bwd, link, in.algo);
    }
  } else {
    add_phase(plan, "forward: after attention and MLP (g)", Collective::all_reduce, act, fwd, link, in.algo);
    if (bwd) add_phase(plan, "backward: before attention and MLP (f)", Collective::all_reduce, act, bwd, link, in.algo);
  }
  plan.notes.push_back(fmt::format("S = b s h x bytes = {:.4g} x {:.4g} x {:.4g} x {} B", in.batch, in.seq, in.hidden,
                                   in.bytes_per_element));
  plan.notes.push_back("source: Shoeybi et al. 2019 (arXiv:1909.08053) sec. 3: 2 all-reduces forward, 2 backward per layer;");
  plan.notes.push_back("        Korthikanti et al. 2022 (arXiv:2205.05198) sec. 4.2.2: SP swaps each for RS + AG, same volume");
  plan.notes.push_back("caveat: with activation recomputation the forward all-reduces run again in backward");
  finish_explanation(plan);
  return plan;
}

}  // namespace simt::cost
