// The time of one serving iteration (one forward pass over a mixed batch of
// prefill chunks and decode tokens), from the same per-operator model as
// cost/train/step_time: token-wise operators (projections, MLP, norms) over all the
// iteration's tokens, attention priced from its KV reads and score FLOPs, the LM
// head on the sequences that emit a token, and the TP all-reduces. This is the
// structure of Vidur (Agrawal et al., MLSys 2024, sec. 4): token-level operators
// depend on the batch's token count, sequence-level ones (attention) on each
// request's context; Vidur measures them, we take their rooflines.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/precision.hpp"
#include "models/model.hpp"

#include <map>

namespace simt::cost {

struct IterationBatch {
  int64_t prefill_tokens = 0;     // new prompt tokens computed this iteration (all chunks)
  double prefill_pairs = 0;       // sum over chunks of query-key pairs: chunk x (past + (chunk + 1) / 2)
  double prefill_kv_tokens = 0;   // sum over chunks of past + chunk: K/V rows read
  int64_t decode_seqs = 0;        // sequences emitting one token from the cache
  double decode_kv_tokens = 0;    // sum of their contexts
  int64_t logits_rows = 0;        // sequences that emit a token (decodes + finished prefills)
};

class IterationModel {
 public:
  // Throws like step_time for impossible inputs.
  IterationModel(const models::ModelConfig& m, const DeviceSpec& device, const Precisions& p, int tp,
                 const Topology& topology = {});
  double time_s(const IterationBatch& b);

 private:
  double token_ops_s(int64_t tokens);  // memoised: projections, MLP, norms, residuals
  const models::ModelConfig& m_;
  const DeviceSpec& device_;
  Precisions p_;
  int tp_;
  Topology topology_;
  std::map<int64_t, double> token_cache_;
};

}  // namespace simt::cost
