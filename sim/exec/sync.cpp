// Barriers and warp collectives: where simulated threads wait for each other.
// A thread parks (fiber switch) only here; everything else runs straight through.
#include "sim/state/block.hpp"
#include "sim/exec/worker.hpp"
#include "sim/exec/spin_watch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

namespace simt {

namespace {

const char* collective_name(Collective k) {
  switch (k) {
    case Collective::Sync: return "__syncwarp";
    case Collective::Shfl: return "__shfl_sync";
    case Collective::ShflUp: return "__shfl_up_sync";
    case Collective::ShflDown: return "__shfl_down_sync";
    case Collective::ShflXor: return "__shfl_xor_sync";
    case Collective::Ballot: return "__ballot_sync";
    case Collective::Any: return "__any_sync";
    case Collective::All: return "__all_sync";
    case Collective::ActiveMask: return "__activemask";
    case Collective::Reduce: return "__reduce_*_sync";
    case Collective::MatchAny: return "__match_any_sync";
    case Collective::MatchAll: return "__match_all_sync";
    case Collective::WarpCall: return "wmma::mma_sync";
  }
  return "?";
}

std::string lane_list(std::uint32_t mask) {
  std::string s;
  for (int l = 0; l < 32; ++l) {
    if (!(mask >> l & 1)) continue;
    int e = l;
    while (e + 1 < 32 && (mask >> (e + 1) & 1)) ++e;
    if (!s.empty()) s += ',';
    s += e == l ? fmt::format("{}", l) : fmt::format("{}-{}", l, e);
    l = e;
  }
  return s;
}

std::string thread_list(const BlockState& b, Run state) {
  std::vector<unsigned> ids;
  for (unsigned t = 0; t < b.nthreads; ++t)
    if (b.run[t] == state) ids.push_back(t);
  std::string s;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += i == j ? fmt::format("{}", ids[i]) : fmt::format("{}-{}", ids[i], ids[j]);
    i = j;
  }
  return s;
}

// __reduce_*_sync over the group's 32-bit values (REDUX): the sum wraps.
std::uint64_t warp_reduce(const WarpState& w, std::uint32_t group, ReduceOp op) {
  bool first = true;
  std::uint32_t acc = 0;
  for (int l = 0; l < 32; ++l) {
    if (!(group >> l & 1)) continue;
    const auto v = static_cast<std::uint32_t>(w.slots[l].value);
    const auto sv = static_cast<std::int32_t>(v), sacc = static_cast<std::int32_t>(acc);
    if (first) {
      acc = v;
      first = false;
      continue;
    }
    switch (op) {
      case ReduceOp::Add: acc += v; break;
      case ReduceOp::MinU: acc = v < acc ? v : acc; break;
      case ReduceOp::MaxU: acc = v > acc ? v : acc; break;
      case ReduceOp::MinS: acc = static_cast<std::uint32_t>(sv < sacc ? sv : sacc); break;
      case ReduceOp::MaxS: acc = static_cast<std::uint32_t>(sv > sacc ? sv : sacc); break;
      case ReduceOp::And: acc &= v; break;
      case ReduceOp::Or: acc |= v; break;
      case ReduceOp::Xor: acc ^= v; break;
    }
  }
  return acc;
}

// Computes every participant's result once the last lane of the group arrives.
void complete(BlockState& b, WarpState& w, std::uint32_t group) {
  const WarpSlot& first = w.slots[std::countr_zero(group)];
  std::uint32_t votes = 0;
  for (int l = 0; l < 32; ++l)
    if ((group >> l & 1) && w.slots[l].value) votes |= 1u << l;
  const std::uint64_t reduced =
      first.kind == Collective::Reduce ? warp_reduce(w, group, static_cast<ReduceOp>(first.arg)) : 0;
  bool all_equal = true;
  for (int l = 0; l < 32; ++l)
    if ((group >> l & 1) && w.slots[l].value != first.value) all_equal = false;
  if (first.kind == Collective::WarpCall) {
    void* lanes[32] = {};
    for (int l = 0; l < 32; ++l)
      if (group >> l & 1) lanes[l] = reinterpret_cast<void*>(w.slots[l].value);
    reinterpret_cast<const WarpCallArgs*>(first.value)->run(lanes);
  }
  for (int l = 0; l < 32; ++l) {
    if (!(group >> l & 1)) continue;
    WarpSlot& s = w.slots[l];
    const int width = s.width, base = l & ~(width - 1);
    int src = l;
    switch (first.kind) {
      case Collective::Shfl: src = base + (s.arg & (width - 1)); break;
      case Collective::ShflUp: src = (l - base) >= s.arg ? l - s.arg : l; break;
      case Collective::ShflDown: src = (l - base) + s.arg < width ? l + s.arg : l; break;
      case Collective::ShflXor: src = ((l ^ s.arg) & ~(width - 1)) == base ? (l ^ s.arg) : l; break;
      default: break;
    }
    switch (first.kind) {
      case Collective::Shfl: case Collective::ShflUp: case Collective::ShflDown: case Collective::ShflXor:
        // A source lane that is not taking part gives 0: one the mask names that has
        // exited, as measured on the H200 (tests/cuda/shfl_absent_lanes.cu), and one the
        // mask leaves out, which is as inactive in the SHFL (PTX leaves it undefined).
        // NVIDIA's reduction sample relies on the second: its reduce7 shuffles down
        // within a ballot of the first few lanes, the lanes above adding 0.
        s.result = group >> src & 1 ? w.slots[src].value : 0;
        break;
      case Collective::Ballot: s.result = votes; break;
      case Collective::Any: s.result = votes != 0; break;
      case Collective::All: s.result = votes == group; break;
      case Collective::ActiveMask: s.result = group; break;
      case Collective::Sync: s.result = 0; break;
      case Collective::Reduce: s.result = reduced; break;
      case Collective::MatchAny: {
        std::uint32_t same = 0;
        for (int k = 0; k < 32; ++k)
          if ((group >> k & 1) && w.slots[k].value == s.value) same |= 1u << k;
        s.result = same;
        break;
      }
      case Collective::MatchAll: s.result = all_equal ? group : 0; break;
      case Collective::WarpCall: s.result = 0; break;
    }
  }
  w.waiting &= ~group;
  const unsigned warp_index = static_cast<unsigned>(&w - b.warps.data());
  ++b.logs[warp_index].sync_count;
  // The lanes leave the collective together: device clock64() reads the latest's count.
  std::int64_t latest = 0;
  for (int l = 0; l < 32; ++l)
    if (group >> l & 1) latest = std::max(latest, thread_quarters(&b.threads[warp_index * 32 + l]));
  for (int l = 0; l < 32; ++l)
    if (group >> l & 1) {
      b.run[warp_index * 32 + l] = Run::Runnable;
      set_thread_quarters(&b.threads[warp_index * 32 + l], latest);
    }
}

// A warp collective whose mask names lanes that have exited: every other lane of the
// mask waits at it, and nothing else can run. The H200 runs it with the lanes present
// (llm.c's matmul_backward_bias kernel 8 relies on it), so it completes, with a warning.
bool complete_without_exited_lanes(BlockState& b) {
  for (unsigned wi = 0; wi < b.nwarps; ++wi) {
    WarpState& w = b.warps[wi];
    if (!w.waiting) continue;
    const WarpSlot& s = w.slots[std::countr_zero(w.waiting)];
    if (s.kind == Collective::ActiveMask) continue;
    std::uint32_t group = 0;
    for (int l = 0; l < 32; ++l)
      if ((w.waiting >> l & 1) && w.slots[l].kind == s.kind && w.slots[l].mask == s.mask) group |= 1u << l;
    const std::uint32_t missing = s.mask & ~group;
    if ((w.waiting & s.mask) != group || (missing & ~w.exited)) continue;
    if (!b.warned) {
      b.warned = true;
      b.warning = b.make_diag(
          DiagKind::ExitedBeforeCollective,
          fmt::format("{} (mask 0x{:08x}) reached by lanes {} of warp {}; lanes {} had exited. The H200 runs it "
                      "with the lanes present, a shuffle from an exited lane giving 0, and so does the simulator; "
                      "but a mask naming exited lanes is undefined behaviour in CUDA",
                      collective_name(s.kind), s.mask, lane_list(group), wi, lane_list(missing)),
          &b.threads[wi * 32 + std::countr_zero(group)], s.site);
      b.warning.warning = true;
    }
    complete(b, w, group);
    return true;
  }
  return false;
}

}  // namespace

void BlockState::fail(Diagnostic d) {
  if (failed) return;
  failed = true;
  fault = std::move(d);
}

Diagnostic BlockState::make_diag(DiagKind k, std::string msg, const ThreadState* t, Site site) const {
  Diagnostic d;
  d.kind = k;
  d.message = std::move(msg);
  d.block = idx;
  if (t) d.thread = t->thread_idx;
  d.site = site;
  return d;
}

std::string BlockState::thread_name(std::uint32_t linear) const {
  const dim3 bd = launch->cfg.block;
  return fmt::format("thread ({},{},{})", linear % bd.x, linear / bd.x % bd.y, linear / (bd.x * bd.y));
}

void yield_thread(ThreadState* t) {
  Worker& w = *t->block->worker;
  boost::context::fiber& next = w.next_context(*t->block, t->linear);
  w.switched_from = t->linear;
  w.accept(std::move(next).resume());
  set_current_thread(t);
}

void wait_for_log_flush(ThreadState* t) {
  t->block->run[t->linear] = Run::AtLogLimit;
  yield_thread(t);
}

void block_barrier(int value, Site site) {
  ThreadState* t = current_thread();
  BlockState& b = *t->block;
  b.run[t->linear] = Run::AtBarrier;
  b.barrier_site[t->linear] = site;
  b.barrier_value[t->linear] = value;
  yield_thread(t);
}

bool launch_is_cooperative() {
  ThreadState* t = current_thread();
  return t && t->block->launch->grid;
}

void grid_barrier(Site site) {
  ThreadState* t = current_thread();
  BlockState& b = *t->block;
  if (!b.launch->grid)
    throw KernelFault(b.make_diag(
        DiagKind::Trap,
        "cooperative_groups::grid_group::sync() in a kernel not launched with cudaLaunchCooperativeKernel: its blocks "
        "need not all be resident, so the grid barrier could never complete (CUDA: grid.is_valid() is false here and "
        "sync() traps). Launch it with cudaLaunchCooperativeKernel",
        t, site));
  b.run[t->linear] = Run::AtGridBarrier;
  b.barrier_site[t->linear] = site;
  b.barrier_value[t->linear] = 0;
  yield_thread(t);
}

std::uint64_t warp_collective(Collective kind, std::uint32_t mask, std::uint64_t value, int arg, int width,
                              Site site) {
  ThreadState* t = current_thread();
  BlockState& b = *t->block;
  WarpState& w = b.warps[t->warp];
  const std::uint32_t me = 1u << t->lane;
  if (kind != Collective::ActiveMask) {
    if (!(mask & me))
      throw KernelFault(b.make_diag(DiagKind::WarpSyncMisuse,
                                    fmt::format("{} called by lane {} with mask 0x{:08x}, which does not include it",
                                                collective_name(kind), t->lane, mask),
                                    t, site));
    if (mask & ~w.present)
      throw KernelFault(b.make_diag(DiagKind::WarpSyncMisuse,
                                    fmt::format("{} mask 0x{:08x} names lanes {} that do not exist in this warp",
                                                collective_name(kind), mask, lane_list(mask & ~w.present)),
                                    t, site));
    if (width < 1 || width > 32 || (width & (width - 1)))
      throw KernelFault(b.make_diag(DiagKind::WarpSyncMisuse,
                                    fmt::format("{} width {} is not a power of two in 1..32", collective_name(kind), width),
                                    t, site));
  }
  w.slots[t->lane] = WarpSlot{kind, mask, value, arg, width, site, 0};
  // a warp-level instruction, counted per site; a WarpCall as the kind it names
  t->ops.add(site, kind == Collective::WarpCall ? static_cast<std::uint32_t>(arg) : 255);
  w.waiting |= me;
  b.run[t->linear] = Run::AtWarpSync;
  if (kind != Collective::ActiveMask && (w.waiting & mask) == mask) {
    for (int l = 0; l < 32; ++l)
      if ((mask >> l & 1) && (w.slots[l].kind != kind || w.slots[l].mask != mask))
        throw KernelFault(b.make_diag(
            DiagKind::WarpSyncMisuse,
            fmt::format("lanes of one warp meet at different collectives: lane {} at {} (mask 0x{:08x}), lane {} at {} "
                        "(mask 0x{:08x})",
                        t->lane, collective_name(kind), mask, l, collective_name(w.slots[l].kind), w.slots[l].mask),
            t, site));
    complete(b, w, mask);
  } else {
    yield_thread(t);
  }
  return w.slots[t->lane].result;
}

// No thread can run. Complete __activemask groups; release a barrier that every
// remaining thread has reached; otherwise name what is stuck.
bool Worker::settle(BlockState& b) {
  if (flush_logs(b)) return true;
  bool progressed = false;
  for (unsigned wi = 0; wi < b.nwarps; ++wi) {
    WarpState& w = b.warps[wi];
    std::map<Site, std::uint32_t> groups;
    for (int l = 0; l < 32; ++l)
      if ((w.waiting >> l & 1) && w.slots[l].kind == Collective::ActiveMask) groups[w.slots[l].site] |= 1u << l;
    for (auto& [site, group] : groups) {
      complete(b, w, group);
      progressed = true;
    }
  }
  if (progressed) return true;
  if (complete_without_exited_lanes(b)) return true;

  for (unsigned wi = 0; wi < b.nwarps; ++wi) {
    WarpState& w = b.warps[wi];
    if (!w.waiting) continue;
    int l = std::countr_zero(w.waiting);
    const WarpSlot& s = w.slots[l];
    std::uint32_t missing = s.mask & ~w.waiting;
    std::uint32_t gone = missing & w.exited;
    b.fail(b.make_diag(DiagKind::Deadlock,
                       fmt::format("deadlock: lanes {} of warp {} wait at {} (mask 0x{:08x}) for lanes {} that {}",
                                   lane_list(w.waiting), wi, collective_name(s.kind), s.mask, lane_list(missing),
                                   gone == missing ? "have exited" : "wait at __syncthreads() or have exited"),
                       &b.threads[wi * 32 + l], s.site));
    return false;
  }

  unsigned first = 0;
  while (first < b.nthreads && b.run[first] != Run::AtBarrier && b.run[first] != Run::AtGridBarrier) ++first;
  if (first == b.nthreads) {
    b.fail(b.make_diag(DiagKind::Deadlock, "deadlock: no thread can make progress", nullptr, nullptr));
    return false;
  }
  const Site site = b.barrier_site[first];
  const Run kind = b.run[first];
  const char* name = kind == Run::AtGridBarrier ? "grid_group::sync()" : "__syncthreads()";
  for (unsigned t = 0; t < b.nthreads; ++t) {
    if (b.run[t] == Run::Done) {  // exited threads count as arrived, as on the H200 (CUDA 13)
      if (!b.warned) {
        b.warned = true;
        b.warning = b.make_diag(DiagKind::ExitedBeforeBarrier,
                                fmt::format("{} reached by threads {}; threads {} had exited. The GPU "
                                            "counts exited threads as arrived, so this runs, but a barrier not "
                                            "every thread reaches is undefined behaviour in CUDA",
                                            name, thread_list(b, kind), thread_list(b, Run::Done)),
                                &b.threads[first], site);
        b.warning.warning = true;
      }
      continue;
    }
    if (b.run[t] != kind) {  // grid.sync() is a block barrier too (CUDA's starts with one)
      b.fail(b.make_diag(DiagKind::DivergentBarrier,
                         fmt::format("threads wait at different barriers: thread {} at {}, thread {} at {} "
                                     "(divergent barriers)",
                                     first, name, t, kind == Run::AtGridBarrier ? "__syncthreads()" : "grid_group::sync()"),
                         &b.threads[first], site));
      return false;
    }
    if (b.barrier_site[t] != site) {
      b.fail(b.make_diag(DiagKind::DivergentBarrier,
                         fmt::format("threads wait at different {} calls: thread {} at one, thread {} at "
                                     "another (divergent barriers)",
                                     name, first, t),
                         &b.threads[first], site));
      return false;
    }
  }
  if (kind == Run::AtGridBarrier) return release_grid_barrier(b);
  release_barrier(b);
  return true;
}

namespace {

// The warps with a thread waiting in state `at`, and the site they wait at (threads
// that exited count as arrived but execute nothing; thread 0 may be one).
std::uint64_t warps_at(const BlockState& b, Run at, Site& site) {
  std::uint64_t warps = 0;
  site = nullptr;
  for (unsigned w = 0; w < b.nwarps; ++w)
    for (unsigned t = w * 32; t < b.nthreads && t < w * 32 + 32; ++t)
      if (b.run[t] == at) {
        ++warps;
        if (!site) site = b.barrier_site[t];
        break;
      }
  return warps;
}

}  // namespace

void Worker::release_barrier(BlockState& b) {
  close_interval(b);
  if (b.failed) return;
  int count = 0;
  for (unsigned t = 0; t < b.nthreads; ++t) count += b.barrier_value[t] != 0;
  b.barrier_result = count;
  // One barrier instruction per warp that reached it, at the site its threads waited at.
  Site site = nullptr;
  const std::uint64_t warps = warps_at(b, Run::AtBarrier, site);
  totals[Counter::WarpBarriers] += warps;
  site_counters(site)[Counter::WarpBarriers] += warps;
  ++b.epoch;
  b.shared->next_interval();
  // Every thread leaves the barrier when the last arrives: device clock64() reads the
  // latest arrival's count in each (docs/exec.md, "Device clock").
  std::int64_t latest = 0;
  for (unsigned t = 0; t < b.nthreads; ++t)
    if (b.run[t] != Run::Done) latest = std::max(latest, thread_quarters(&b.threads[t]));
  for (unsigned t = 0; t < b.nthreads; ++t)
    if (b.run[t] != Run::Done) {
      b.run[t] = Run::Runnable;  // exited threads stay exited
      set_thread_quarters(&b.threads[t], latest);
    }
}

// Every remaining thread of the block waits at grid.sync(): close the interval as at
// __syncthreads(), then wait for the rest of the grid (sim/exec/grid_sync.hpp). CUDA 13
// implements grid.sync() as a block barrier, one thread's arrival at a counter in
// global memory (fence, atomic, polling loads) and a second block barrier: counted
// here as two barrier instructions per warp; the one thread's fence, atomic and
// polling are not counted (how often it polls depends on the GPU's timing).
bool Worker::release_grid_barrier(BlockState& b) {
  close_interval(b);
  if (b.failed) return false;
  Site site = nullptr;
  const std::uint64_t warps = 2 * warps_at(b, Run::AtGridBarrier, site);
  totals[Counter::WarpBarriers] += warps;
  site_counters(site)[Counter::WarpBarriers] += warps;
  if (!b.launch->grid->arrive(b.linear)) {
    b.stopped = true;
    return false;
  }
  b.barrier_result = 0;
  ++b.epoch;
  b.shared->next_interval();
  for (unsigned t = 0; t < b.nthreads; ++t)
    if (b.run[t] != Run::Done) b.run[t] = Run::Runnable;
  return true;
}

}  // namespace simt
