// ZeRO communication volume and time per training step (Rajbhandari et al. 2020,
// "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models",
// arXiv:1910.02054, sec. 7). With Ψ parameters of `bytes_per_element` each:
//   stage 0 (plain DP): all-reduce of gradients          = 2Ψ per GPU
//   stage 1 (P_os), 2 (P_os+g): reduce-scatter of grads
//       + all-gather of updated params                   = 2Ψ  (same as DP)
//   stage 3 (P_os+g+p): all-gather params in forward and
//       again in backward + reduce-scatter of grads       = 3Ψ  (1.5x DP)
// The paper's 2Ψ / 3Ψ are the large-n limits; here each term carries (n-1)/n.
// Memory per GPU under ZeRO lives with the LLM budgets (cost/train/memory.*).
#pragma once
#include "cost/comm/comm_plan.hpp"

namespace simt::cost {

struct ZeroCommInput {
  double params = 0;             // Ψ
  int stage = 0;                 // 0..3
  int gpus = 2;                  // data-parallel degree
  double bytes_per_element = 2;  // fp16/bf16 params and grads, as in the paper
  CommAlgo algo = CommAlgo::ring;
};

// Throws std::invalid_argument for stage outside 0..3, params <= 0, gpus < 2.
CommPlan zero_comm(const ZeroCommInput& in, const LinkSpec& link);

}  // namespace simt::cost
