// Mixture-of-experts expert-parallel communication per MoE layer: tokens are
// sent to their top-k experts (dispatch all-to-all) and the expert outputs sent
// back (combine all-to-all), in forward, and both again in backward (GShard,
// Lepikhin et al. 2020, arXiv:2006.16668; Switch Transformer, Fedus et al. 2021,
// arXiv:2101.03961). Each GPU sends tokens · k · h · bytes · capacity_factor per
// all-to-all, of which (ep-1)/ep leaves the GPU under uniform routing.
#pragma once
#include "cost/comm/comm_plan.hpp"

namespace simt::cost {

struct MoeCommInput {
  double tokens = 1;             // tokens on each GPU per microbatch (b·s)
  double hidden = 1;             // h: size of the vector sent per token
  int top_k = 1;                 // experts per token
  int ep = 2;                    // expert-parallel degree (GPUs in the all-to-all)
  double capacity_factor = 1.0;  // buffer padding; Switch uses 1.0-1.25
  double bytes_per_element = 2;
  bool training = true;
  int layers = 1;                // MoE layers
  CommAlgo algo = CommAlgo::ring;
};

// Throws std::invalid_argument for non-positive sizes, top_k < 1, ep < 2.
CommPlan moe_comm(const MoeCommInput& in, const LinkSpec& link);

}  // namespace simt::cost
