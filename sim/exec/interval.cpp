// Closing an interval (at each barrier and at the end of a block): the checks
// that waited for it, and the counting of its memory instructions and operations.
#include "sim/check/global_checks.hpp"
#include "sim/check/shared_checks.hpp"
#include "sim/count/atomic_rule.hpp"
#include "sim/count/dram_estimate.hpp"
#include "sim/count/l1_rule.hpp"
#include "sim/count/tensor_ops.hpp"
#include "sim/exec/worker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace simt {

void Worker::check_pending_reads(BlockState& b) {
  if (shared.pending.empty() || !checks().uninitialized) return;
  // The lowest-numbered thread's: the same report whatever order the checks ran in.
  const PendingRead& p = *std::min_element(shared.pending.begin(), shared.pending.end(),
                                           [](const PendingRead& x, const PendingRead& y) { return x.thread < y.thread; });
  Diagnostic d = b.make_diag(
      DiagKind::UninitializedShared,
      fmt::format("read of shared memory that no thread of this block had written ({}); a GPU reads whatever the "
                  "memory holds: if the value is never used, SIMT_OPTIONS=uninitialized=0 lets the launch run on",
                  shared.describe(p.addr)),
      &threads_[p.thread], p.site);
  d.address = p.addr;
  b.fail(std::move(d));
}

// At each barrier and at the end of the block: the checks that waited for the
// interval to end, and the counting of its memory instructions. A convergent
// warp's rows are checked and counted in one pass (process_rows).
void Worker::close_interval(BlockState& b) {
  SharedCheckFlags on{t_address_map.races, t_address_map.uninitialized, false};
  for (unsigned w = 0; w < b.nwarps; ++w)
    if (!logs_[w].divergent() && logs_[w].has_shared_stores()) on.note_readers = true;
  on.check_loads = on.note_readers || shared.stores_this_interval || shared.unwritten_words > 0;
  try {
    for (unsigned w = 0; w < b.nwarps; ++w)
      if (!logs_[w].divergent()) process_rows(b, w, on, true);
  } catch (const KernelFault& f) {
    b.fail(f.diag);
    return;
  }
  check_pending_reads(b);
  if (b.failed) return;
  for (unsigned w = 0; w < b.nwarps; ++w) {
    if (logs_[w].divergent()) count_divergent(w);  // checked as it ran
    logs_[w].clear_interval();
  }
}

void Worker::count_divergent(unsigned warp) {
  const WarpLog& log = logs_[warp];
  std::array<const std::vector<MemEvent>*, 32> lanes{};
  for (unsigned l = 0; l < 32; ++l) lanes[l] = &log.lane_logs()[l];
  scratch_.clear();
  group_warp_accesses(lanes, scratch_);
  for (const WarpAccess& a : scratch_) count_instruction(a, cost_of(a), warp);
}

// A warp at its log's limit, in the middle of an interval: its rows are checked and
// counted now, as at a barrier, and the log starts empty. Other warps' accesses of
// the same interval are still to come, so reads are noted for the race check. The
// warp's later accesses group into instructions by themselves: a memory
// instruction whose lanes fall on both sides of the cut counts as two (at most a
// few per 16,384 rows).
bool Worker::flush_logs(BlockState& b) {
  bool any = false;
  const SharedCheckFlags on{t_address_map.races, t_address_map.uninitialized, true, true};
  for (unsigned w = 0; w < b.nwarps; ++w) {
    bool waiting = false;
    for (unsigned t = w * 32; t < b.nthreads && t < w * 32 + 32; ++t) waiting |= b.run[t] == Run::AtLogLimit;
    if (!waiting) continue;
    any = true;
    try {
      if (logs_[w].divergent())
        count_divergent(w);
      else
        process_rows(b, w, on, true);
    } catch (const KernelFault& f) {
      b.fail(f.diag);
      return false;
    }
    logs_[w].clear_interval();
    for (unsigned t = w * 32; t < b.nthreads && t < w * 32 + 32; ++t)
      if (b.run[t] == Run::AtLogLimit) b.run[t] = Run::Runnable;
  }
  return any;
}

// A convergent warp's rows: the deferred checks and the DRAM estimate, then (with
// `count`) the counters, sharing the work (bank patterns, sectors) between them.
void Worker::process_rows(BlockState& b, unsigned warp, SharedCheckFlags on, bool count) {
  WarpLog& log = logs_[warp];
  const bool checking = on.races || on.uninitialized;
  const auto rows = log.rows();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const WarpAccess& row = rows[k];
    InstructionCost cost;
    if (row.space == Space::Global) {
      std::uint64_t sectors[64];
      cost.sectors = distinct_sectors(row, sectors);
      cost.l1_cycles = l1_data_cycles(sectors, cost.sectors);
      std::uint32_t read = 0;
      for (std::uint32_t i = 0; i < cost.sectors; ++i)
        read += account_dram_sector(totals, b.launch->serial, sectors[i] << 5, row.op);
      if (read) site_counters(row.site)[Counter::DramReadBytes] += read;
      if (count && row.op == MemOp::Load)
        if (const std::uint32_t again = rereads_.note(warp, row.site, sectors, cost.sectors)) {
          totals[Counter::GlobalLdRereadSectors] += again;
          site_counters(row.site)[Counter::GlobalLdRereadSectors] += again;
        }
      if (is_atomic(row.op)) cost.sectors = atomic_sectors(row);  // a sector per round (sim/count/atomic_rule.hpp)
      check_global_row(b, warp, row, on.races);
    } else if (!is_atomic(row.op)) {
      const SharedPattern& pattern = shared_patterns_.analyse(row);
      cost.shared = pattern.cost;
      if (checking) check_shared_row(b, warp, row, log.row_sync_count(k), on, &pattern);
    }
    if (count) count_instruction(row, cost, warp);
  }
}

void Worker::count_instruction(const WarpAccess& a, const InstructionCost& cost, unsigned warp) {
  count_access(a, cost, totals);
  count_access(a, cost, site_counters(a.site));
  if (a.space == Space::Global && is_atomic(a.op)) atomic_tally_.add(a);
  // Both off by default: one predictable branch a row.
  if (row_extras_) [[unlikely]]
    count_extras(a, warp);
}

void Worker::count_extras(const WarpAccess& a, unsigned warp) {
  if (tally_threads_ && a.space == Space::Global) block_tally_.add(a, warp);
  if (!trace_block_) return;
  const std::uint32_t seq = trace_seq_++;
  if (!trace_.wants(a.site, trace_linear_, warp, seq)) return;
  TracedAccess t;
  t.block = trace_linear_;
  t.warp = warp;
  t.seq = seq;
  t.row = a;
  if (a.space == Space::Shared)
    for (std::uint32_t m = a.active; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
      const std::uintptr_t addr = a.addr[lane];
      // From the kernel's first __shared__ variable, or from the start of the
      // extern __shared__ buffer.
      const std::uintptr_t lo = shared.statics.contains(addr)
                                    ? (shared.kernel_lo && addr >= shared.kernel_lo ? shared.kernel_lo : shared.statics.lo)
                                : shared.dynamic.contains(addr) ? shared.dynamic.lo
                                                                : addr;
      t.shared_offset[lane] = static_cast<std::uint32_t>(addr - lo);
    }
  trace_.add(t);
}

Counters& Worker::site_counters(Site site) {
  SiteSlot& slot = site_cache_[(reinterpret_cast<std::uintptr_t>(site) >> 3) % site_cache_.size()];
  if (slot.site != site) slot = {site, &per_site[site]};  // map nodes never move
  return *slot.counters;
}

std::span<const FoldedFpOp> Worker::folded_ops(Site block) {
  FoldedSlot& slot = folded_cache_[(reinterpret_cast<std::uintptr_t>(block) >> 3) % folded_cache_.size()];
  if (slot.site != block) slot = {block, folded_fp_ops(block)};
  return slot.ops;
}

namespace {

// `sum` executions of FP operation `op` over a warp's lanes, `max` by its busiest lane.
void add_fp(Counters& c, std::uint32_t op, std::uint64_t sum, std::uint64_t max) {
  c[fp_counter(op)] += sum;
  if (packed_half(op)) c[unpacked_counter(op)] += sum;
  c[Counter::WarpInst] += max;
  c[Counter::ThreadInst] += sum;
}

// `warps` warp-level mma_syncs of one kind (sim/count/tensor_ops.hpp).
void add_tensor(Counters& c, std::uint32_t kind, std::uint64_t warps) {
  const std::uint64_t insts = warps * tensor_insts(kind);
  c[Counter::TensorInst] += insts;
  c[Counter::WarpInst] += insts;
  c[Counter::ThreadInst] += 32 * insts;
  const std::uint64_t flops = warps * tensor_flops(tensor_math(kind));
  switch (tensor_math(kind)) {
    case TensorMath::Half: c[Counter::Tensor16Flops] += flops; break;
    case TensorMath::Tf32: c[Counter::TensorTf32Flops] += flops; break;
    case TensorMath::Int8: c[Counter::TensorInt8Ops] += flops; break;
  }
}

}  // namespace

// Per warp and site: thread-level count = sum over lanes, warp-level = max.
void Worker::count_operations(BlockState& b) {
  for (unsigned w = 0; w < b.nwarps; ++w)
    warp_ops_[w].for_each([&](const WarpSiteCounts::Entry& e) {
      std::uint64_t sum = 0, max = 0;
      for (std::uint64_t c : e.count) {
        sum += c;
        max = std::max(max, c);
      }
      count_site(e.site, e.kind, sum, max);
    });
}

void Worker::count_site(Site site, std::uint32_t kind, std::uint64_t sum, std::uint64_t max) {
  if (kind >= kBlockKind)  // the FP operations that run with the group, as many times per run
    for (const FoldedFpOp& op : folded_ops(site)) {
      if (op.op == kCarriedChainOp) {  // the loop's chain per iteration, in tenths of a clock: the warp's
        totals[Counter::CarriedChainClk] += (max * op.times + 5) / 10;
        continue;
      }
      if (op.op == kStraightChainOp) {  // likewise the chain outside loops, once per thread
        totals[Counter::StraightChainClk] += (max * op.times + 5) / 10;
        continue;
      }
      if (op.op == kLoadUseChainOp) {  // and the chain after a loop's loads, per iteration
        totals[Counter::LoadUseChainClk] += (max * op.times + 5) / 10;
        continue;
      }
      add_fp(totals, op.op, sum * op.times, max * op.times);
      add_fp(site_counters(op.site), op.op, sum * op.times, max * op.times);
    }
  Counters& s = site_counters(site);
  for (Counters* c : {&totals, &s}) {
    if (kind >= kBlockKind) {  // a group of basic blocks: its instructions, warp-level = the busiest lane's
      const std::uint64_t quarters = kind - kBlockKind;
      (*c)[Counter::InstExecuted] += (max * quarters + 2) / 4;
      (*c)[Counter::ThreadInstExecuted] += (sum * quarters + 2) / 4;
      continue;
    }
    if (kind < static_cast<std::uint32_t>(kFpOpCount)) {
      add_fp(*c, kind, sum, max);
      continue;
    }
    if (is_tensor_kind(kind)) {  // wmma::mma_sync: warp-level, like a collective, in tensor instructions
      add_tensor(*c, kind, max);
      continue;
    }
    (*c)[Counter::WarpCollectives] += max;
    (*c)[Counter::WarpInst] += max;
    (*c)[Counter::ThreadInst] += sum;
  }
}

}  // namespace simt
