// The communication a parallelism scheme performs, as a list of collectives, with
// its volume and alpha-beta time. ZeRO, tensor parallelism and MoE each build
// one (zero_comm.hpp, tp_comm.hpp, moe_comm.hpp); budgets can sum them.
#pragma once
#include "cost/comm/comm.hpp"

#include <string>
#include <vector>

namespace simt::cost {

struct CommPhase {
  std::string what;     // "gradients reduce-scatter (backward)"
  Collective op{};
  double bytes = 0;     // S of each collective
  int count = 1;        // how many times per step / layer
  CommResult each;      // time of one
};

struct CommPlan {
  std::string scheme;   // "ZeRO-3", "tensor parallel", "MoE expert parallel"
  std::string per;      // what the totals are per: "training step", "layer"
  int gpus = 0;
  std::string link;
  std::vector<CommPhase> phases;
  double wire_bytes_per_gpu = 0;  // Σ count · wire_factor · S: bytes each GPU sends
  double time_s = 0;              // Σ count · time (no overlap between phases)
  std::vector<std::string> notes; // formula, sources, caveats
  std::string explanation;
};

// Adds a phase, timing it with collective_time; updates the totals.
void add_phase(CommPlan& plan, std::string what, Collective op, double bytes, int count, const LinkSpec& link,
               CommAlgo algo);
// Fills plan.explanation from phases and notes.
void finish_explanation(CommPlan& plan);

}  // namespace simt::cost
