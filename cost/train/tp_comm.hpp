// Tensor-parallel (Megatron-LM) communication per transformer layer (Shoeybi et
// al. 2019, arXiv:1909.08053, sec. 3): the attention block and the MLP block
// each end in one all-reduce of the b·s·h activations in forward (operator g)
// and each begin with one in backward (operator f): 2 forward + 2 backward.
// With sequence parallelism (Korthikanti et al. 2022, arXiv:2205.05198,
// sec. 4.2.2) each all-reduce becomes a reduce-scatter plus an all-gather of the
// same size: the same bytes on the wire.
#pragma once
#include <cstdint>
#include "cost/comm/comm_plan.hpp"

namespace simt::cost {

struct TpCommInput {
  double batch = 1;              // b: sequences per microbatch
  double seq = 1;                // s
  double hidden = 1;             // h
  int tp = 2;                    // tensor-parallel degree (GPUs of the group)
  int64_t heads = 0;             // attention heads; 0: not given (not checked)
  double bytes_per_element = 2;  // bf16 activations
  bool training = true;          // false: forward only (inference)
  bool sequence_parallel = false;
  int layers = 1;
  CommAlgo algo = CommAlgo::ring;
};

// Throws std::invalid_argument for non-positive or fractional sizes, tp < 2,
// layers < 1, and a tp that does not divide the hidden size (each GPU holds h/tp
// columns of every projection) or the heads (each GPU holds whole heads).
CommPlan tp_comm(const TpCommInput& in, const LinkSpec& link);

}  // namespace simt::cost
