// Each function here is one hardware limit: the count that loads it, the rate it
// serves at, and which SMs share the work. Per-SM limits are charged on the
// busiest SM (ceil(blocks / SMs) blocks' share of the counts): idle SMs and a
// last partial round of blocks cost time, as on the GPU.
#include "cost/kernel/kernel_terms.hpp"

#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace simt::cost {
namespace {

using Op = GlobalSite::Op;

// "1.08 M wavefronts": the prefix apart from the unit, which is a word here.
std::string count(double n, const std::string& unit) {
  if (unit == "B") return format_count(n, "B");
  std::string c = format_count(n, "");
  while (!c.empty() && c.back() == ' ') c.pop_back();
  return unit.empty() ? c : c + " " + unit;
}

TimeTerm named(const char* name, const char* what) {
  TimeTerm t;
  t.name = name;
  t.what = what;
  return t;
}

// A per-SM limit: `amount` over the whole launch, the busiest SM's share of it,
// served at `rate` per SM per clock.
TimeTerm per_sm(const char* name, const char* what, double amount, const char* unit, const Rate& rate,
                const KernelRates& r, const Occupancy& o) {
  TimeTerm t = named(name, what);
  t.amount = amount;
  t.unit = unit;
  const double on_busiest = amount * o.busiest_share;
  t.seconds = rate.value > 0 ? on_busiest / rate.value / r.clock_hz : 0;
  t.formula = fmt::format("{} on the busiest SM ({:g} of {:g} blocks) / ({:.3g} {}) / {:.3g} GHz",
                          count(on_busiest, unit), o.busiest_sm_blocks, o.blocks_total, rate.value, rate.unit,
                          r.clock_hz / 1e9);
  t.source = rate.source;
  return t;
}

// A device-wide limit: `amount` served at `rate` (per second) by the whole GPU.
TimeTerm device_wide(const char* name, const char* what, double amount, const char* unit, const Rate& rate) {
  TimeTerm t = named(name, what);
  t.amount = amount;
  t.unit = unit;
  t.seconds = rate.value > 0 ? amount / rate.value : 0;
  t.formula = fmt::format("{} / {}", count(amount, unit), format_rate(rate.value, std::string(unit) + "/s"));
  t.source = rate.source;
  return t;
}

double sum_lines(const std::vector<GlobalSite>& sites, Op op) {
  double n = 0;
  for (const GlobalSite& s : sites)
    if (s.op == op && s.requests > 0) n += s.requests * lines_per_request(s);
  return n;
}

double per(double a, double b) { return b > 0 ? a / b : 0; }

TimeTerm shared_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  TimeTerm t = per_sm("shared", "shared-memory wavefronts", c.shared_wavefronts(), "wavefronts",
                      r.shared_wavefronts, r, o);
  const double ld = per(c.shared_ld_wavefronts, c.shared_ld_inst), st = per(c.shared_st_wavefronts, c.shared_st_inst);
  t.detail = fmt::format("{:.3g} per load, {:.3g} per store request{}", ld, st,
                         std::max(ld, st) > 1.05 ? " (bank conflicts)" : " (conflict-free)");
  return t;
}

// Block dispatch: an SM starts (and retires) one thread block at a time, whatever
// the block does; a grid of many short blocks waits for it. The first block of each
// SM is part of the launch overhead (a grid of one block per SM takes as long as
// one block: tests/cuda/short_kernel_probe.cu).
TimeTerm blocks_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  TimeTerm t = named("blocks", "thread-block dispatch");
  const double later = std::max(0.0, o.busiest_sm_blocks - 1);
  t.amount = c.blocks;
  t.unit = "blocks";
  t.seconds = later / r.blocks.value / r.clock_hz;
  t.detail = fmt::format("{:g} threads a block", c.threads_per_block);
  t.formula = fmt::format("{:g} blocks after the first on the busiest SM ({:g} of {:g} blocks) / ({:.3g} {}) / "
                          "{:.3g} GHz",
                          later, o.busiest_sm_blocks, o.blocks_total, r.blocks.value, r.blocks.unit, r.clock_hz / 1e9);
  t.source = r.blocks.source;
  return t;
}

// L1 serves a line a clock, or two where their sectors sit at different places in the
// line: the simulator counts those clocks per instruction (simt__l1_data_cycles.sum,
// sim/count/l1_rule.hpp); counters without them (ncu's) take a line a clock.
TimeTerm l1_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o,
                 const std::vector<GlobalSite>& sites) {
  const double lines = sum_lines(sites, Op::Load) + sum_lines(sites, Op::Store) + sum_lines(sites, Op::Atomic);
  const double requests = c.ld_requests + c.st_requests + c.atom_requests;
  const bool counted = c.l1_data_cycles > 0;
  TimeTerm t = per_sm("l1", "L1 global-access wavefronts", counted ? c.l1_data_cycles : lines,
                      counted ? "clocks" : "wavefronts", r.l1_wavefronts, r, o);
  const double avg = per(lines, requests);
  t.detail = fmt::format("{:.3g} lines per request{}{}", avg, avg > 1.5 ? " (uncoalesced)" : " (coalesced)",
                         counted ? fmt::format(", {:.3g} clocks each (two lines a clock where their sectors sit at "
                                               "different places)",
                                               per(c.l1_data_cycles, requests))
                                 : "");
  return t;
}

TimeTerm l1_l2_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o,
                    const std::vector<GlobalSite>& sites) {
  const double store_lines = sum_lines(sites, Op::Store) + sum_lines(sites, Op::Atomic);
  const double load_lines = sum_lines(sites, Op::Load) * load_miss_fraction(c);
  TimeTerm t = per_sm("l1_l2", "L1-to-L2 line requests", store_lines + load_lines, "lines", r.l1_l2_lines, r, o);
  const double store_req = c.st_requests + c.atom_requests;
  t.detail = fmt::format("{} from stores ({:.3g} per request{}), {} from load misses", count(store_lines, ""),
                         per(store_lines, store_req), per(store_lines, store_req) > 1.5 ? ": uncoalesced" : "",
                         count(load_lines, ""));
  return t;
}

TimeTerm l2_term(const KernelCounters& c, const KernelRates& r) {
  const double bytes = 32 * (c.st_sectors + c.atom_sectors + c.ld_sectors * load_miss_fraction(c));
  TimeTerm t = device_wide("l2", "L2 traffic", bytes, "B", r.l2_bytes);
  t.detail = fmt::format("{:.3g} sectors per request", per(c.global_sectors(), c.ld_requests + c.st_requests + c.atom_requests));
  if (!(r.l2_bytes.value > 0)) t.detail += "; no L2 bandwidth for this device: not charged";
  return t;
}

TimeTerm dram_term(const KernelCounters& c, const KernelRates& r) {
  TimeTerm t = device_wide("dram", "DRAM traffic", c.dram_read_bytes + c.dram_write_bytes, "B", r.dram_bytes);
  t.detail = fmt::format("{} read, {} written (compulsory: every re-read hits in L2)",
                         format_count(c.dram_read_bytes, "B"), format_count(c.dram_write_bytes, "B"));
  return t;
}

// Zero-copy: page-locked host memory crosses the host link (PCIe), a few percent
// of DRAM's rate; reads and writes go in opposite directions and overlap.
TimeTerm sysmem_term(const KernelCounters& c, const KernelRates& r) {
  const double busier = std::max(c.sysmem_read_bytes, c.sysmem_write_bytes);
  TimeTerm t = device_wide("sysmem", "host-link traffic (zero-copy)", busier, "B", r.host_link_bytes);
  t.detail = fmt::format("{} read from and {} written to page-locked host memory, each direction at the link's "
                         "rate, after one {} round trip",
                         format_count(c.sysmem_read_bytes, "B"), format_count(c.sysmem_write_bytes, "B"),
                         format_seconds(r.sysmem_latency_s.value));
  if (!(t.seconds > 0)) return t;
  // The first access waits a round trip over the link before any bytes flow.
  t.seconds += r.sysmem_latency_s.value;
  t.formula += fmt::format(" + {}", format_seconds(r.sysmem_latency_s.value));
  t.source += "; round trip: " + r.sysmem_latency_s.source;
  return t;
}

// Contention, where the simulator counted it: the L2 applies the atomic sector rounds
// of one 512-byte block of addresses one after another (sim/count/atomic_rule.hpp), so
// the busiest block's rounds take at least their count over the per-block rate, and
// every atomic sector shares the device's atomic throughput. Measured on the H200
// (docs/validation/h200-atomics.md).
TimeTerm contention_term(const KernelCounters& c, const KernelRates& r) {
  const double serial = c.atomic_hot_rounds / r.atomic_rounds.value;
  const double spread = c.atom_sectors / r.atomic_sectors.value;
  const bool hot = serial >= spread;
  TimeTerm t = device_wide("atomics", "atomic contention", hot ? c.atomic_hot_rounds : c.atom_sectors,
                           hot ? "rounds" : "sectors", hot ? r.atomic_rounds : r.atomic_sectors);
  t.detail = hot ? fmt::format("{} rounds in the busiest 512-byte block of addresses, applied one after another at "
                               "its L2 slice ({} atomic sectors in all)",
                               count(c.atomic_hot_rounds, ""), count(c.atom_sectors, ""))
                 : fmt::format("{} atomic sectors over the device's atomic units; the busiest 512-byte block has "
                               "{} rounds",
                               count(c.atom_sectors, ""), count(c.atomic_hot_rounds, ""));
  return t;
}

// Same-address atomics: a site whose lanes all hit one sector serialises at the
// L2 slice that owns it, one update at a time, and warps of that site are taken
// to share the address (the "atomic storm"); other atomics count as L2 traffic.
// For counters without the contention counter (ncu's).
TimeTerm atomic_term(const KernelCounters& c, const std::vector<GlobalSite>& sites, const KernelRates& r) {
  if (c.atomic_hot_rounds > 0) return contention_term(c, r);
  double updates = 0;
  for (const GlobalSite& s : sites)
    if (s.op == Op::Atomic && s.requests > 0 && s.sectors <= s.requests) updates += s.requests * s.lanes;
  TimeTerm t = device_wide("atomics", "same-address atomics", updates, "updates", r.atomic_same_address);
  t.detail = "each lane's update to one address serialised at its L2 slice";
  return t;
}

}  // namespace

double lines_per_request(const GlobalSite& s) {
  if (!(s.requests > 0)) return 0;
  const double sectors = s.sectors / s.requests;
  // Every lane its own sector. Relative, not absolute: a sampled launch's sectors,
  // requests and lanes are scaled estimates, and their quotient may land a few 1e-9
  // below the lanes (llm.c attention_forward's value kernel at 512 threads was priced
  // at 8 lines a store instead of 32, 15 ms instead of 58).
  if (sectors > 4 && sectors >= s.lanes * (1 - 1e-6)) return sectors;
  return std::max(1.0, std::ceil(sectors / 4 - 1e-9));
}

std::vector<GlobalSite> global_sites(const KernelCounters& c) {
  if (!c.sites.empty()) return c.sites;
  const double lanes = c.warp_inst > 0 ? std::clamp(c.thread_inst / c.warp_inst, 1.0, 32.0) : 32;
  return {{Op::Load, c.ld_requests, c.ld_sectors, lanes},
          {Op::Store, c.st_requests, c.st_sectors, lanes},
          {Op::Atomic, c.atom_requests, c.atom_sectors, lanes}};
}

namespace {

// A warp's rounds of one load site: requests per warp, or one for a straight-line site.
// In a loop that branches, where the block's warps meet at barriers, the copies of
// the site one block holds between barriers (a fully unrolled tile copy's float4
// loads) are issued together and wait one round: matmul_warptile's SASS issues its k
// step's eight LDG.128 before the first STS (docs/validation/h200-short-kernels.md).
// Warps that never meet (decode attention, a warp per query head) are measured at
// about a round per copy although their SASS issues a token's copies together: their
// per-token time exceeds one round and the counted chain after it by an amount that
// grows with the copies and the heads a warp serves, which the counters do not tell
// yet; the rounds per copy stand in for it there.
double rounds_of(const GlobalSite& s, const KernelCounters& c) {
  if (s.straight_line) return per(std::min(s.requests, c.warps()), c.warps());
  const bool together = s.loop != 0 && !s.batched && c.warp_barriers > 0;
  return per(s.requests / (together ? std::max(1.0, s.copies) : 1.0), c.warps());
}

// The group whose sites overlap: the site's loop, or 0 (straight-line sites and sites
// of an unknown loop).
unsigned group_of(const GlobalSite& s) { return s.straight_line ? 0 : s.loop; }

// Iterations of a branch-free loop whose loads are in flight together: ptxas issues
// about kLoadsBeforeFirstUse of the unrolled copies' loads before the first use, so a
// loop with many load sites gets fewer iterations a round (kBatchedLoadIterations x
// sites loads in ceil(that / kLoadsBeforeFirstUse) groups, each waiting its round).
double batched_iterations(unsigned load_sites) {
  const double groups = std::ceil(kBatchedLoadIterations * std::max(1u, load_sites) / kLoadsBeforeFirstUse - 1e-9);
  return kBatchedLoadIterations / std::max(1.0, groups);
}

// The same for a loop nvcc unrolls 16 deep (GlobalSite::deep), over a warp's n
// iterations: the n mod 4 left over one at a time, then rounds of kDeepLoadsOut loads
// shared by the loop's load sites, global and shared (the SASS's blocks of 16, 8 and 4
// iterations, whose first loads ptxas issues before the first use:
// layernorm_two_pass_mean's 24 iterations a warp are 2 rounds).
double deep_iterations(double n, unsigned load_sites) {
  if (!(n >= 1)) return batched_iterations(load_sites);
  const double per_round = std::max(1.0, kDeepLoadsOut / std::max(1u, load_sites));
  const double fours = std::floor(n / 4) * 4;
  const double rounds = (n - fours) + std::ceil(fours / per_round - 1e-9);
  return n / std::max(1.0, rounds);
}

// What one round of a site's loop waits, in clocks: a first touch (as often as the
// site's own loads were first touches, where the simulator counted them; else the
// launch's share) waits for DRAM, shared by the iterations in flight in a branch-free
// loop (batched_iterations); a re-read waits for L2: one iteration of a loaded batched
// loop, as micro_l1_reuse measures it, or in a loop that branches the L2-hit latency.
// There, a sector the same warp's previous load at the site read too (a thread walking
// its own row) is an L1 hit, where L1's latency is measured: such a round waits that.
double round_clk(const GlobalSite& s, double launch_miss, double in_flight, const KernelRates& r) {
  const double miss = s.dram_read_bytes >= 0 && s.sectors > 0 ? std::min(1.0, s.dram_read_bytes / (32 * s.sectors))
                                                                : launch_miss;
  const double dram = r.global_latency_s.value * r.clock_hz;
  const double l2_round = r.l2_load_round_clk.value;
  const double l2_hit = r.l2_hit_latency_clk.value > 0 ? r.l2_hit_latency_clk.value : l2_round;
  if (s.loop == 0 || s.straight_line) return miss * dram + (1 - miss) * l2_round;
  if (s.batched) return miss * dram / in_flight + (1 - miss) * l2_round;
  const double again = r.l1_hit_latency_clk.value > 0 && s.sectors > 0 ? std::min(1.0, s.reread_sectors / s.sectors) : 0;
  // A request's data comes back through L1 over its clocks for the request's lines
  // (GlobalSite::l1_cycles): the last lane's the clocks after the first later than a
  // one-line request's, which the measured latencies are.
  const double serve = s.l1_cycles > 0 && s.requests > 0 ? std::max(0.0, s.l1_cycles / s.requests - 1) : 0;
  if (!(again > 0)) return miss * dram + (1 - miss) * l2_hit + serve;
  // The first reads are the other sectors: the DRAM share is of them.
  const double first_miss = again < 1 ? std::min(1.0, miss / (1 - again)) : 0;
  return again * r.l1_hit_latency_clk.value + (1 - again) * (first_miss * dram + (1 - first_miss) * l2_hit) + serve;
}

// Shared-memory sites of loop `loop`: a deep loop's shared loads take their share of
// the loads ptxas has out before the first use (gemv_int8's SASS: 8 LDG and 2 LDS
// before the first IDP4A; gemv_fp16's 5 and 2).
unsigned shared_sites_in(unsigned loop, const KernelCounters& c) {
  return loop == 0 ? 0
                   : unsigned(std::count_if(c.shared_sites.begin(), c.shared_sites.end(), [&](const SharedSite& s) {
                       return s.loop == loop && !s.straight_line && s.requests > 0;
                     }));
}

// Load sites (with requests) per group_of.
std::map<unsigned, unsigned> load_sites_per_loop(const std::vector<GlobalSite>& sites) {
  std::map<unsigned, unsigned> n;
  for (const GlobalSite& s : sites)
    if (s.op == Op::Load && s.requests > 0) ++n[group_of(s)];
  return n;
}

// Iterations of a branch-free loop whose loads wait one DRAM round together, for the
// site s of a loop with `loop_sites` load sites.
double iterations_in_flight(const GlobalSite& s, const KernelCounters& c, unsigned loop_sites) {
  return s.deep ? deep_iterations(per(s.requests, c.warps()), loop_sites + shared_sites_in(group_of(s), c))
                : batched_iterations(loop_sites);
}

struct Rounds {
  double rounds = 0;  // of the busiest site
  double clk = 0;     // the wait, per warp
  void take(double n, double n_clk) {
    rounds = std::max(rounds, n);
    clk = std::max(clk, n_clk);
  }
};

// A loop waits for its busiest load site's rounds: its loads are in flight together.
// In a loop that branches, each basic block's loads are waited for before the next
// block's issue (a tile copy whose elements each take a branch: matmul_wmma's k step
// waits four round trips, docs/validation/h200-short-kernels.md), so there the
// loop's rounds are the sum over its blocks of each block's busiest site.
bool blocks_in_turn(const GlobalSite& s) { return s.loop != 0 && !s.straight_line && !s.batched && s.block != 0; }

// Per loop (group_of); the clocks only when the rates are given.
std::map<unsigned, Rounds> load_loops(const KernelCounters& c, const KernelRates* r) {
  std::map<unsigned, Rounds> loops;
  std::map<unsigned, std::map<unsigned, Rounds>> blocks;  // loop -> block -> its busiest site
  const double miss = load_miss_fraction(c);
  const std::vector<GlobalSite> sites = global_sites(c);
  std::map<unsigned, unsigned> sites_in_loop = load_sites_per_loop(sites);
  for (const GlobalSite& s : sites) {
    if (s.op != Op::Load || !(s.requests > 0)) continue;
    const double rounds = rounds_of(s, c);
    const double clk = r ? rounds * round_clk(s, miss, iterations_in_flight(s, c, sites_in_loop[group_of(s)]), *r) : 0;
    loops[group_of(s)].take(rounds, clk);
    if (blocks_in_turn(s)) blocks[group_of(s)][s.block].take(rounds, clk);
  }
  for (auto& [loop, in_loop] : blocks) {
    Rounds serial;
    for (auto& [block, b] : in_loop) serial.rounds += b.rounds, serial.clk += b.clk;
    loops[loop].take(serial.rounds, serial.clk);
  }
  return loops;
}

}  // namespace

double load_rounds_per_warp(const KernelCounters& c) {
  double sum = 0;
  for (auto& [loop, l] : load_loops(c, nullptr)) sum += l.rounds;
  return sum;
}

namespace {

// The shared accesses of the launch that wait in turn, split by kind: a branch-free
// loop's count kBatchedLoadIterations at a time, the others each.
struct SharedInTurn {
  double batched = 0, others = 0;
};

SharedInTurn shared_in_turn(const KernelCounters& c) {
  SharedInTurn n;
  for (const SharedSite& s : c.shared_sites) {
    if (s.batched && !s.straight_line)
      n.batched += s.requests / kBatchedLoadIterations;
    else
      n.others += s.requests;
  }
  return n;
}

double all_shared(const KernelCounters& c) { return c.shared_requests() + c.shared_atom_inst; }

}  // namespace

double dependent_shared_per_warp(const KernelCounters& c) {
  if (c.shared_sites.empty()) return per(all_shared(c), c.warps());
  const SharedInTurn n = shared_in_turn(c);
  return per(std::min(n.batched + n.others, all_shared(c)), c.warps());
}

double batched_shared_per_warp(const KernelCounters& c) {
  return per(std::min(shared_in_turn(c).batched, all_shared(c)), c.warps());
}

double load_miss_fraction(const KernelCounters& c) {
  if (!(c.ld_sectors > 0)) return 0;
  return std::min(1.0, c.dram_read_bytes / (32 * c.ld_sectors));
}

std::vector<TimeTerm> memory_terms(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  const std::vector<GlobalSite> sites = global_sites(c);
  return {dram_term(c, r),        sysmem_term(c, r),      l2_term(c, r),          l1_l2_term(c, r, o, sites),
          l1_term(c, r, o, sites), shared_term(c, r, o), atomic_term(c, sites, r), blocks_term(c, r, o)};
}

std::vector<TimeTerm> compute_terms(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  // Every instruction where they are known (the compiler front end's estimate, or
  // ncu's); else the ones simtlab counts on every front end, a lower bound.
  const bool all = c.sass_warp_inst > 0;
  TimeTerm issue = per_sm("issue", "instruction issue", all ? c.sass_warp_inst : c.warp_inst, "warp instructions",
                          r.issue, r, o);
  issue.detail = all ? fmt::format("{:.3g} active lanes per instruction; every instruction (integer, control, "
                                   "memory, FP)",
                                   per(c.sass_thread_inst, c.sass_warp_inst))
                     : fmt::format("{:.3g} active lanes per instruction; FP, memory and warp collectives only "
                                   "(integer and control instructions are not counted: a lower bound)",
                                   per(c.thread_inst, c.warp_inst));
  TimeTerm fp32 = per_sm("fp32", "FP32 pipe", c.fp32_inst, "thread instructions", r.fp32_lanes, r, o);
  fp32.detail = "fadd, fmul, ffma";
  // A term of its own: Volta, Turing and GA100 have a separate FP16 pipe; from GA10x
  // on, half instructions share the FMA pipe with FP32 ones, so a kernel heavy in
  // both is under-predicted by up to 2x there.
  TimeTerm fp16 = per_sm("fp16", "FP16/BF16 pipe", c.fp16_inst, "thread instructions", r.fp16_lanes, r, o);
  fp16.detail = "hadd, hmul, hfma on fp16/bf16 (a packed pair is one instruction)";
  TimeTerm fp64 = per_sm("fp64", "FP64 pipe", c.fp64_inst, "thread instructions", r.fp64_lanes, r, o);
  fp64.detail = "dadd, dmul, dfma";
  return {issue, fp32, fp16, fp64};
}

// Latency: every warp waits at least for its own chain of dependent steps, and the
// SM runs `waves` rounds of resident blocks one after another. The chain is one
// global round trip (loads in flight overlap), each barrier (every warp executes
// all of them, so the count per warp is the block's), each shared access in turn
// plus one cycle per bank-conflict replay, and each warp collective (each result
// feeds the next step in the kernels we ship: tree reductions, tiles read after a
// barrier). Shared accesses and collectives are averaged over the block's warps.
// A loop's body waits for its loop-carried chain (an accumulator's FFMAs, a running
// max and its rescale) or for its batched shared reads, whichever is longer: both
// stand for the same dependent path through the body, so only the chain's excess
// over the reads is added. Both are a warp's sums over all its loops (the counters
// do not pair a chain with its loop's shared sites): a kernel whose loops differ,
// one chained and one reading shared memory, is charged the larger sum only. The
// chain of the code outside loops (unrolled code, index arithmetic) is added whole: the
// counters leave its shared reads out. The first wave's last block on an SM starts one dispatch
// per block after its first (`blocks`' rate), and its chain ends that much later.
TimeTerm latency_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  const double warps = c.warps();
  const double shared = dependent_shared_per_warp(c);
  const double replays = per(std::max(0.0, c.shared_wavefronts() - c.shared_requests()), warps);
  const double collectives = per(c.warp_collectives, warps);
  const double barriers = per(c.warp_barriers, warps);
  const double carried = per(c.carried_chain_clk, warps);
  const double straight = per(c.straight_chain_clk, warps);
  const double carried_excess =
      std::max(0.0, carried - batched_shared_per_warp(c) * r.shared_latency_clk.value);
  const double global_s = c.ld_requests + c.atom_requests > 0 ? r.global_latency_s.value : 0;
  const double chain_clk = barriers * r.barrier_latency_clk.value + shared * r.shared_latency_clk.value + replays +
                           collectives * r.shuffle_latency_clk.value + carried_excess + straight;
  const double chain_s = global_s + chain_clk / r.clock_hz;
  const double later_starts = std::max(0.0, std::min<double>(o.resident_blocks, o.busiest_sm_blocks) - 1);
  const double ramp_s = r.blocks.value > 0 ? later_starts / r.blocks.value / r.clock_hz : 0;
  TimeTerm t = named("latency", "latency (occupancy and waves)");
  t.amount = o.waves;
  t.unit = o.waves == 1 ? "wave" : "waves";
  t.seconds = o.waves * chain_s + ramp_s;
  t.detail = fmt::format("{:g} resident blocks per SM (limited by {}), each wave a {} chain per warp{}",
                         double(o.resident_blocks), o.limiter, format_seconds(chain_s),
                         ramp_s > 0 ? fmt::format(", the first wave's last block starting {} late",
                                                  format_seconds(ramp_s))
                                    : "");
  t.formula = fmt::format(
      "{:g} waves x ({} global + {:.3g} barriers x {:g} clk + {:.3g} shared x {:g} clk + {:.3g} replays + "
      "{:.3g} shuffles x {:g} clk + {:.0f} clk loop-carried beyond the batched shared reads + {:.0f} clk outside "
      "loops) + {:g} later block "
      "starts / ({:.3g} {}) / {:.3g} GHz",
      o.waves, format_seconds(global_s), barriers, r.barrier_latency_clk.value, shared, r.shared_latency_clk.value,
      replays, collectives, r.shuffle_latency_clk.value, carried_excess, straight, later_starts, r.blocks.value, r.blocks.unit,
      r.clock_hz / 1e9);
  t.source = r.shared_latency_clk.source + "; block starts: " + r.blocks.source +
             "; dependent chains: the compiler front end's simt__carried_chain_clk.sum and "
             "simt__straight_chain_clk.sum";
  return t;
}

TimeTerm load_chain_term(const KernelCounters& c, const KernelRates& r, const Occupancy& o) {
  // A round waits for DRAM as often as a loaded sector is a first touch (the
  // compulsory estimate), else for an L2 hit; the latency term already charges the
  // first round trip.
  const double miss = load_miss_fraction(c);
  const double dram_clk = r.global_latency_s.value * r.clock_hz, l2_clk = r.l2_load_round_clk.value;
  const double first_clk = miss * dram_clk + (1 - miss) * l2_clk;
  double rounds = 0, chain_clk = 0, batched = 0, branching = 0;
  std::vector<std::string> parts;
  for (auto& [loop, l] : load_loops(c, &r)) {
    rounds += l.rounds;
    chain_clk += l.clk;
    parts.push_back(fmt::format("{:.3g} rounds x {:.0f} clk", l.rounds, per(l.clk, l.rounds)));
  }
  const std::vector<GlobalSite> sites = global_sites(c);
  const std::map<unsigned, unsigned> sites_in_loop = load_sites_per_loop(sites);
  std::set<double> in_flight;  // iterations, over the branch-free loops
  for (const GlobalSite& s : sites) {
    if (s.op != Op::Load || s.loop == 0 || s.straight_line) continue;
    (s.batched ? batched : branching) += 1;
    const auto n = sites_in_loop.find(group_of(s));
    if (s.batched)
      in_flight.insert(std::round(10 * iterations_in_flight(s, c, n == sites_in_loop.end() ? 1 : n->second)) / 10);
  }
  // A warp issues in order: in a loop whose loads are not issued ahead, the next
  // iteration's load waits for the chain after this iteration's (the compiler front
  // end's simt__load_use_chain_clk, per warp).
  const double use_clk = per(c.load_use_chain_clk, c.warps());
  const std::size_t loop_count = parts.size();
  if (use_clk > 0) parts.push_back(fmt::format("{:.0f} clk after the loads", use_clk));
  // A wave's warps start together and their rounds go out together: DRAM delivers a
  // round's sectors at its rate, the last of them the round's share of the transfer
  // after the first. In a launch of one wave the transfer of the rounds the warps keep
  // in step (about kInStepRounds; later ones drift apart and overlap) adds to the chain:
  // layernorm_two_pass_mean at 1,024 rows takes 0.64 us longer than at 256, and its
  // 2.4 MB more take 0.55 us at DRAM's rate.
  const double in_step = rounds > 1 ? std::min(1.0, kInStepRounds / rounds) : 0;
  const double stream_clk = o.waves <= 1 ? in_step * c.dram_read_bytes / r.dram_bytes.value * r.clock_hz : 0;
  if (stream_clk > 0) parts.push_back(fmt::format("{:.0f} clk of DRAM transfer", stream_clk));
  const double later_clk = std::max(0.0, chain_clk + use_clk + stream_clk - first_clk);
  TimeTerm t = named("load_chain", "dependent global loads per warp");
  t.amount = o.waves * std::max(0.0, rounds - 1);
  t.unit = "round trips";
  t.seconds = o.waves * later_clk / r.clock_hz;
  std::vector<std::string> kinds;
  if (batched > 0)
    kinds.push_back(fmt::format("{:g} load site{} in branch-free loops (loads of {} iterations in flight)", batched,
                                batched == 1 ? "" : "s", fmt::join(in_flight, " or ")));
  if (branching > 0)
    kinds.push_back(fmt::format("{:g} load site{} in loops that branch", branching, branching == 1 ? "" : "s"));
  t.detail = fmt::format("{:.3g} load rounds per warp in {} loop{} (a loop that uses each value before its next "
                         "iteration waits a round trip each time; loops run one after another){}; {:.0f}% of the "
                         "launch's loaded sectors from DRAM (where first reads are filed by site, each loop's "
                         "rounds use its own sites' share){}",
                         rounds, loop_count, loop_count == 1 ? "" : "s",
                         kinds.empty() ? "" : fmt::format("; {}", fmt::join(kinds, ", ")), 100 * miss,
                         l2_clk > 0 ? "" : "; no measured L2 round for this device (micro_load_loop): L2 hits not charged");
  t.formula = fmt::format("{:g} waves x ({} - the first {:.0f} clk) / {:.3g} GHz", o.waves,
                          parts.empty() ? std::string("0") : fmt::format("{}", fmt::join(parts, " + ")), first_clk,
                          r.clock_hz / 1e9);
  t.source = r.l2_load_round_clk.source + "; L2 hit: " + r.l2_hit_latency_clk.source +
             "; DRAM: " + r.global_latency_s.source;
  if (use_clk > 0) t.source += "; after the loads: the compiler front end's simt__load_use_chain_clk.sum";
  if (stream_clk > 0) t.source += "; DRAM transfer (one wave, in step): " + r.dram_bytes.source;
  const bool rereads = std::any_of(sites.begin(), sites.end(), [](const GlobalSite& s) {
    return s.op == Op::Load && s.reread_sectors > 0 && s.loop != 0 && !s.straight_line && !s.batched;
  });
  if (rereads && r.l1_hit_latency_clk.value > 0)
    t.source += "; a warp's re-reads (simt__ld_sectors_warp_reread.sum), L1 hit: " + r.l1_hit_latency_clk.source;
  return t;
}

}  // namespace simt::cost
