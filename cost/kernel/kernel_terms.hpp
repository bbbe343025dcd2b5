// The terms of the kernel time model: one per hardware limit, each the time the
// launch would take if that limit were the only one. cost/kernel/kernel_time.hpp
// combines them; docs/cost-model.md ('Kernel time') gives every formula.
#pragma once
#include "cost/kernel/kernel_counters.hpp"
#include "cost/kernel/kernel_rates.hpp"
#include "cost/kernel/occupancy.hpp"

#include <string>
#include <vector>

namespace simt::cost {

struct TimeTerm {
  std::string name;     // stable key: dram, l2, l1, l1_l2, shared, issue, fp32, fp16, fp64, atomics, latency, load_chain
  std::string what;     // "shared-memory wavefronts"
  double seconds = 0;
  double amount = 0;    // of `unit`, for the whole launch
  std::string unit;     // "wavefronts", "bytes", ...
  std::string detail;   // why the amount is what it is: "32 per request (bank conflicts)"
  std::string formula;  // the arithmetic with values plugged in
  std::string source;   // of the rate
};

// Distinct 128-byte lines one request of this site touches. The counters give
// sectors, not lines: a site whose every active lane has its own sector is taken
// as scattered (one line per sector: column access, strides of 32+ elements);
// otherwise four sectors share a line. Strides of 8 to 31 four-byte elements are
// over-counted up to 4x (docs/cost-model.md).
double lines_per_request(const GlobalSite& s);

// The sites of the launch, or one per kind from the totals when none were given.
std::vector<GlobalSite> global_sites(const KernelCounters& c);

// Loaded sectors that reach L2: the first touch of each (the DRAM read estimate
// over the sectors loaded, at most 1); re-touches are taken as L1 hits.
double load_miss_fraction(const KernelCounters& c);

// Dependent global-load rounds of one warp. A warp issues in order, so a loop that
// uses each loaded value before its next iteration waits one round trip per
// iteration; the load sites of one loop are in flight together (the most requests
// per warp of them are the loop's rounds), and the loops of a kernel run one after
// another (their rounds add). A straight-line site (the copies of a fully unrolled
// loop) is one round however many requests it makes. Sites whose loop is not known
// (counters without it: ncu's) count as one loop.
double load_rounds_per_warp(const KernelCounters& c);

// Iterations of a branch-free loop whose loads nvcc issues together (it unrolls such
// loops 4 to 16 deep and hoists the copies' loads; the SASS of layernorm_two_pass and
// gemv_fp16 shows 16, of micro_load_loop 4): a first-touch round trip is shared by
// this many iterations. A loop whose body branches issues one iteration's load at a
// time (layernorm_welford's IEEE divisions, the online softmax's `if`).
constexpr double kBatchedLoadIterations = 4;
// How many of a branch-free loop's unrolled loads ptxas issues before the first use
// (the SASS of layernorm_backward_naive's two kernels: 9 of the column walk's 16 loads,
// four sites a step; 9 of the row walk's 12, three sites; a loop of one or two sites
// has all four iterations' loads out at once, gemv_fp16, attention_bwd_rowdot).
constexpr double kLoadsBeforeFirstUse = 9;
// Loads a loop nvcc unrolls 16 deep has out before the first use (GlobalSite::deep),
// global and shared together, in the SASS: layernorm_two_pass_mean 16 (one site),
// attention_bwd_rowdot 16, softmax_backward_warp_per_row and
// layernorm_backward_fused_reduce 12 (two sites), gemv_int8 8 + 2 LDS, gemv_fp16 5 + 2.
constexpr double kDeepLoadsOut = 12;
// Rounds of a loop the warps of a one-wave launch keep in step, each waiting for its
// share of DRAM's transfer (load_chain_term): fitted on the validation set, where 24 to
// 48 give the same launches within 25% (8 to 64 one fewer; every round, three fewer:
// histogram_shared_privatized's 62 rounds a warp drift apart).
constexpr double kInStepRounds = 32;


// Shared accesses in a warp's latency chain: every one, except that a branch-free
// loop's (its body unrolled, its reads independent of each other) overlap
// kBatchedLoadIterations at a time. Without shared sites: every access.
double dependent_shared_per_warp(const KernelCounters& c);
// Of those, the batched loops' share (kBatchedLoadIterations at a time), per warp: the
// part a loop-carried chain replaces where it is longer (latency_term).
double batched_shared_per_warp(const KernelCounters& c);

std::vector<TimeTerm> memory_terms(const KernelCounters& c, const KernelRates& r, const Occupancy& o);
std::vector<TimeTerm> compute_terms(const KernelCounters& c, const KernelRates& r, const Occupancy& o);
TimeTerm latency_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o);
// A warp's own chain of load rounds beyond the first (which `latency` charges):
// waves x (rounds - 1) x (miss fraction x the global round trip + the rest x the
// L2-hit latency); L2 hits cost nothing where the latency is not measured.
TimeTerm load_chain_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o);

}  // namespace simt::cost
