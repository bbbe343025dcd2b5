// MoE router family: the gating step of a mixture-of-experts layer (GShard, Switch,
// Mixtral). For each of T tokens, the router's logits over E experts (the gating
// GEMM's output, given here) become probabilities p = softmax(logits); the token's
// top-k experts by p (ties: the lower index) are its choices, each with gate p[e].
// The T*k choices are then grouped by expert, so each expert's GEMM reads its
// tokens contiguously: `order` lists choice indices (token * k + j) expert by expert,
// within an expert in token order (a stable sort), and `offsets[e]` is where expert
// e's run starts (offsets[E] = T*k). kernels/parallel/moe.cu routes tokens this way
// on several GPUs.
//
// Versions (simt list shows them too):
//   moe_router_atomic.cu      a thread per token gates and claims a slot with
//                             atomicAdd(&count[expert], 1); a scan of the counts and a
//                             scatter. Few launches, but T*k atomics on E addresses
//                             serialise at the L2 slice that owns each counter, and
//                             the order within an expert is the order the atomics
//                             landed: it changes from run to run on a GPU (the driver
//                             sorts each expert's run before returning it, to compare)
//   moe_router_block_scan.cu  deterministic counting sort: per tile of 256 choices a
//                             histogram in shared memory, one scan over (expert, tile),
//                             then a stable scatter ranking each choice among its
//                             tile's earlier same-expert choices with __match_any_sync
//                             and per-warp counts: no global atomics, stable by design
//   moe_router_cub.cu         the library way: cub::DeviceHistogram for the counts,
//                             cub::DeviceScan for the offsets, cub::DeviceRadixSort::
//                             SortPairs (key: expert, only the bits E needs) for the
//                             order — the two-call temp-storage pattern of real routers
//
// Run:  simt run moe_router_block_scan --tokens 4096 --experts 16 --top-k 2
// CPU reference: below (selection by the logits, gates in double). nvcc builds the
// same files unchanged (the CUB version against NVIDIA's CUB).
#pragma once
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace moe_router {

using namespace simt::kernels;

constexpr int kMaxExperts = 256, kMaxTopK = 8;

inline std::vector<Param> params() {
  return {{"tokens", "4096", "tokens routed (T)"},
          {"experts", "16", "experts (E, at most 256)"},
          {"top-k", "2", "experts per token (k, at most 8 and at most E)"}};
}

struct Problem {
  int tokens, experts, k;
  int choices() const { return tokens * k; }
};

inline Problem problem(const Params& p) {
  const Problem pr{int(p.integer("tokens", 1, 1 << 24)), int(p.integer("experts", 1, kMaxExperts)),
                   int(p.integer("top-k", 1, kMaxTopK))};
  if (pr.k > pr.experts) throw std::invalid_argument("--top-k must not exceed --experts");
  return pr;
}

// Gates one token: softmax over its E logits, then k rounds of "the largest p not
// yet chosen" (strictly larger wins, so ties go to the lower index). Writes the
// token's k experts and gates. Shared by every version: the gating is the same
// arithmetic everywhere, the versions differ in how they group the choices.
__device__ inline void gate_token(const float* logits, int E, int k, int* expert, float* gate) {
  float m = -INFINITY;
  for (int e = 0; e < E; ++e) m = fmaxf(m, logits[e]);
  float s = 0.0f;
  for (int e = 0; e < E; ++e) s += expf(logits[e] - m);
  int chosen[kMaxTopK];
  for (int j = 0; j < k; ++j) {
    int best = -1;
    float best_logit = -INFINITY;
    for (int e = 0; e < E; ++e) {
      bool taken = false;
      for (int i = 0; i < j; ++i) taken |= chosen[i] == e;
      if (!taken && (best < 0 || logits[e] > best_logit)) best = e, best_logit = logits[e];
    }
    chosen[j] = best;
    expert[j] = best;
    gate[j] = expf(best_logit - m) / s;
  }
}

// The router's logits: 4 * test_values, multiples of 1/16 in [-4, 4), so some
// tokens have tied experts (the lower index must win) and the softmax is peaked
// enough to matter.
inline std::vector<float> logits(const Problem& pr) {
  std::vector<float> x = test_values(std::size_t(pr.tokens) * pr.experts, 7);
  for (float& v : x) v *= 4.0f;
  return x;
}

// Device buffers of one run; launch(...) fills expert, gate, order and offsets.
struct Buffers {
  const float* logits;
  int* expert;   // [T*k]
  float* gate;   // [T*k]
  int* order;    // [T*k] choice indices grouped by expert
  int* offsets;  // [E+1]
};

template <class T>
std::vector<float> download_as_float(const T* d, std::size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return std::vector<float>(h.begin(), h.end());
}

// Uploads the logits, calls launch(buffers, problem) and returns the four outputs
// (integers as floats: every value is below 2^24, exact). With canonical_order,
// each expert's run of `order` is sorted first (for versions whose order within an
// expert is the order atomics landed in).
template <class Launch>
Outputs run(const Params& p, Launch launch, bool canonical_order = false) {
  const Problem pr = problem(p);
  const std::vector<float> x = logits(pr);
  const std::size_t n = pr.choices();
  float *d_logits, *d_gate;
  int *d_expert, *d_order, *d_offsets;
  cudaMalloc(&d_logits, x.size() * sizeof(float));
  cudaMalloc(&d_gate, n * sizeof(float));
  cudaMalloc(&d_expert, n * sizeof(int));
  cudaMalloc(&d_order, n * sizeof(int));
  cudaMalloc(&d_offsets, (pr.experts + 1) * sizeof(int));
  cudaMemcpy(d_logits, x.data(), x.size() * sizeof(float), cudaMemcpyHostToDevice);
  launch(Buffers{d_logits, d_expert, d_gate, d_order, d_offsets}, pr);
  Outputs out{{{"expert", download_as_float(d_expert, n)},
               {"gate", download_as_float(d_gate, n)},
               {"order", download_as_float(d_order, n)},
               {"offsets", download_as_float(d_offsets, pr.experts + 1)}}};
  if (canonical_order) {
    std::vector<float>& order = out.buffers[2].data;
    const std::vector<float>& offsets = out.buffers[3].data;
    for (int e = 0; e < pr.experts; ++e)
      std::sort(order.begin() + int(offsets[e]), order.begin() + int(offsets[e + 1]));
  }
  cudaFree(d_logits);
  cudaFree(d_gate);
  cudaFree(d_expert);
  cudaFree(d_order);
  cudaFree(d_offsets);
  return out;
}

#if !defined(__CUDACC__)
// The reference: choices by the logits (p is monotone in them, and distinct logits
// are at least 1/16 apart, so float's softmax cannot reorder them), gates in double,
// a stable counting sort by expert. Gates within rtol 1e-5 (the H200's expf bits and
// a float sum over E against double); every integer output exactly.
struct Routing {
  std::vector<float> expert, order, offsets;
  std::vector<double> gate;
};

inline Routing reference(const Problem& pr) {
  const std::vector<float> x = logits(pr);
  const int E = pr.experts, k = pr.k;
  Routing r;
  r.expert.resize(pr.choices());
  r.gate.resize(pr.choices());
  for (int t = 0; t < pr.tokens; ++t) {
    const float* row = &x[std::size_t(t) * E];
    double m = -INFINITY, s = 0;
    for (int e = 0; e < E; ++e) m = std::max(m, double(row[e]));
    for (int e = 0; e < E; ++e) s += std::exp(row[e] - m);
    std::vector<bool> taken(E, false);
    for (int j = 0; j < k; ++j) {
      int best = -1;
      for (int e = 0; e < E; ++e)
        if (!taken[e] && (best < 0 || row[e] > row[best])) best = e;
      taken[best] = true;
      r.expert[std::size_t(t) * k + j] = float(best);
      r.gate[std::size_t(t) * k + j] = std::exp(row[best] - m) / s;
    }
  }
  r.offsets.assign(E + 1, 0.0f);
  for (float e : r.expert) r.offsets[int(e) + 1] += 1;
  for (int e = 0; e < E; ++e) r.offsets[e + 1] += r.offsets[e];
  r.order.resize(pr.choices());
  std::vector<float> next(r.offsets.begin(), r.offsets.end() - 1);
  for (int i = 0; i < pr.choices(); ++i) r.order[std::size_t(next[int(r.expert[i])]++)] = float(i);
  return r;
}

inline Check exact(const std::vector<float>& got, const std::vector<float>& want, const std::string& what) {
  Check c = compare(got, want, 0.0, what);
  return c;
}

inline Check check(const Params& p, const Outputs& out) {
  const Problem pr = problem(p);
  const Routing want = reference(pr);
  for (const auto& [name, values] : {std::pair{"expert", &want.expert}, std::pair{"order", &want.order},
                                     std::pair{"offsets", &want.offsets}}) {
    Check c = exact(out.at(name).data, *values, std::string(name) + " (exact)");
    if (!c.ok) return c;
  }
  const std::vector<float>& gate = out.at("gate").data;
  Check c;
  c.ok = gate.size() == want.gate.size();
  for (std::size_t i = 0; c.ok && i < gate.size(); ++i) {
    const double err = std::fabs(gate[i] - want.gate[i]);
    c.max_abs_err = std::max(c.max_abs_err, err);
    if (err > 1e-5 * want.gate[i]) c.ok = false;
  }
  c.tolerance = 1e-5;
  c.detail = "expert, order and offsets exact; gate within 1e-5 relative (max |error| " + std::to_string(c.max_abs_err) +
             ")" + (c.ok ? "" : " FAILED");
  return c;
}
#else
inline constexpr std::nullptr_t check = nullptr;  // the reference runs in the simulator build only
#endif

}  // namespace moe_router
