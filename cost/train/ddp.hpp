// Data-parallel gradient all-reduce with bucketing, overlapped with backward
// (PyTorch DDP; Li et al. 2020, "PyTorch Distributed", VLDB, arXiv:2006.15704).
//
// Model: gradients become ready at a uniform rate over the backward pass, so
// bucket k (of size b, in the order backward produces them) is ready at
// T_bwd * (bytes up to and including k) / total. One communication stream runs
// the buckets' all-reduces in order: start_k = max(ready_k, end_{k-1}). What is
// left after backward ends is the exposed communication:
//   exposed = max(0, end_last - T_bwd)
// Without overlap the step would pay the sum of all all-reduce times.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"

#include <vector>

namespace simt::cost {

struct DdpInput {
  double params = 0;
  double grad_bytes_per_param = 4;            // fp32 gradients (2 for bf16 grads)
  double bucket_bytes = 25.0 * 1024 * 1024;   // PyTorch default bucket_cap_mb = 25
  double backward_s = 0;                      // compute time of the backward pass
  int gpus = 2;
  CommAlgo algo = CommAlgo::ring;
};

struct DdpBucket {
  double bytes = 0, ready_s = 0, start_s = 0, end_s = 0;
};

struct DdpResult {
  DdpInput in;
  std::string link;
  double grad_bytes = 0;      // params * grad_bytes_per_param
  std::vector<DdpBucket> buckets;
  double comm_total_s = 0;    // sum of the buckets' all-reduce times
  double single_allreduce_s = 0;  // one all-reduce of all gradients (no bucketing)
  double exposed_s = 0;       // communication left after backward ends
  double step_s = 0;          // backward + exposed
  double no_overlap_s = 0;    // backward + comm_total
  double hidden_fraction = 0; // share of communication hidden behind backward
  std::string explanation;
};

// Throws std::invalid_argument on non-positive params, bucket size, backward
// time or bytes per parameter, and on gpus < 2.
DdpResult ddp_overlap(const DdpInput& in, const LinkSpec& link);

}  // namespace simt::cost
