// Collective communication time: the alpha-beta model over one link type.
//
//   time = steps * alpha + wire_factor * S / B
//
// S is the collective's size in nccl-tests' sense (the whole buffer: for
// all-gather the gathered output, for reduce-scatter the input, for all-to-all
// what one rank sends), B the per-GPU, per-direction link bandwidth, alpha the
// per-step latency. algbw = S / time; busbw = algbw * bus_factor with nccl-tests'
// factors (doc/PERFORMANCE.md), so for large S busbw tends to B: a ring
// collective that runs at link speed reports busbw = link bandwidth.
#pragma once
#include "cost/catalog/catalog.hpp"

#include <string>
#include <vector>

namespace simt::cost {

enum class Collective { broadcast, reduce, all_reduce, reduce_scatter, all_gather, all_to_all };
enum class CommAlgo { ring, tree };

// "all-reduce", "allreduce", "all_reduce" all parse; unknown names throw with a
// near-miss suggestion.
Collective parse_collective(const std::string& name);
std::string to_string(Collective op);  // "all-reduce"
std::vector<std::string> collective_names();
CommAlgo parse_comm_algo(const std::string& name);
std::string to_string(CommAlgo algo);

// nccl-tests' busbw / algbw: all-reduce 2(n-1)/n; reduce-scatter, all-gather,
// all-to-all (n-1)/n; broadcast, reduce 1.
double bus_factor(Collective op, int gpus);

struct CommResult {
  Collective op{};
  CommAlgo algo{};
  double bytes = 0;        // S
  int gpus = 0;
  std::string link;
  double alpha_s = 0;      // per-step latency used
  double beta_bw = 0;      // link bytes/s used
  int steps = 0;           // latency steps of the algorithm
  double wire_factor = 0;  // bytes each GPU sends over its link, as a multiple of S
  double latency_s = 0;    // steps * alpha
  double transfer_s = 0;   // wire_factor * S / B
  double time_s = 0;
  double algbw = 0;        // S / time
  double busbw = 0;        // algbw * bus_factor
  double bus_factor = 0;
  std::string formula;     // e.g. "2(n-1)*alpha + 2(n-1)/n * S/B"
  std::string explanation;
};

// Throws std::invalid_argument for bytes <= 0 or non-finite, gpus < 2 (a
// collective over one GPU moves nothing; say so rather than print zeros), or a
// tree requested for a collective NCCL only runs as a ring.
CommResult collective_time(Collective op, double bytes, int gpus, const LinkSpec& link,
                           CommAlgo algo = CommAlgo::ring);

}  // namespace simt::cost
