// Every device-memory access of a simulated thread lands here: classify the
// address, check it (bounds, alignment, races, initialisation), account the DRAM
// estimate, and log it for the warp-level counters.
#include "sim/context.hpp"
#include "sim/global_memory.hpp"
#include "sim/worker.hpp"

#include <fmt/format.h>

#include <atomic>

namespace simt {

namespace {

// Looked up once: the accessor's guard check was a measurable share of every access.
GlobalMemory& memory() {
  static GlobalMemory* const m = &GlobalMemory::instance();
  return *m;
}

const char* op_name(MemOp op) { return op == MemOp::Load ? "read" : op == MemOp::Store ? "write" : "atomic"; }

[[noreturn]] void fault(DiagKind k, std::string msg, ThreadState* t, Site site, std::uintptr_t addr,
                        std::string allocation = {}) {
  Diagnostic d = t->block->make_diag(k, std::move(msg), t, site);
  d.address = addr;
  d.allocation = std::move(allocation);
  throw KernelFault(std::move(d));
}

std::string thread_name(const BlockState& b, std::uint32_t linear) {
  const dim3 bd = b.launch->cfg.block;
  return fmt::format("thread ({},{},{})", linear % bd.x, linear / bd.x % bd.y, linear / (bd.x * bd.y));
}

// ---- DRAM estimate: a sector costs DRAM traffic the first time a launch reads
// it (unless written first) and once if the launch writes it.
void account_dram(Worker& w, const LaunchContext& L, std::uintptr_t addr, unsigned size, MemOp op) {
  auto& gm = memory();
  for (std::uintptr_t s = addr & ~std::uintptr_t(31); s < addr + size; s += 32) {
    std::atomic_ref<std::uint32_t> shadow(*gm.sector_shadow(s));
    const std::uint32_t want = op == MemOp::Load ? 1u : op == MemOp::Store ? 2u : 3u;
    std::uint32_t old = shadow.load(std::memory_order_relaxed);
    for (;;) {
      std::uint32_t flags = (old >> 2) == L.serial ? (old & 3u) : 0u;
      if ((flags & want) == want || (want == 1u && (flags & 2u))) break;
      std::uint32_t now = (L.serial << 2) | flags | want;
      if (shadow.compare_exchange_weak(old, now, std::memory_order_relaxed)) {
        if ((want & 1u) && !(flags & 3u)) w.totals[Counter::DramReadBytes] += 32;
        if ((want & 2u) && !(flags & 2u)) w.totals[Counter::DramWriteBytes] += 32;
        break;
      }
    }
  }
}

// ---- global races: per 4-byte word, the last writer and the last reader(s)
// of this launch. Threads of one block are ordered by barriers; different
// blocks are never ordered within a launch.
constexpr std::uint32_t kManyBlocks = 0xFFFFFFFFu;
struct Stamp {
  std::uint16_t tag;
  std::uint16_t epoch;  // top bit: several readers in this block and epoch
  std::uint32_t thread; // global linear thread id
  static Stamp of(std::uint64_t v) { return {std::uint16_t(v >> 48), std::uint16_t(v >> 32), std::uint32_t(v)}; }
  std::uint64_t pack() const { return std::uint64_t(tag) << 48 | std::uint64_t(epoch) << 32 | thread; }
};

void check_global_race(ThreadState* t, const LaunchContext& L, std::uintptr_t addr, unsigned size, MemOp op,
                       Site site) {
  BlockState& b = *t->block;
  const std::uint32_t me = static_cast<std::uint32_t>(b.linear * L.threads_per_block + t->linear);
  const std::uint16_t epoch = static_cast<std::uint16_t>(b.epoch & 0x7FFF);
  auto ordered = [&](std::uint32_t other, std::uint16_t other_epoch) {
    return other != kManyBlocks && other / L.threads_per_block == b.linear && (other_epoch & 0x7FFF) != epoch;
  };
  auto& gm = memory();
  for (std::uintptr_t a = addr & ~std::uintptr_t(3); a < addr + size; a += 4) {
    std::atomic_ref<std::uint64_t> wref(gm.race_shadow(a)[0]), rref(gm.race_shadow(a)[1]);
    Stamp w = Stamp::of(wref.load(std::memory_order_relaxed));
    if (w.tag == L.tag && w.thread != me && !ordered(w.thread, w.epoch))
      fault(DiagKind::GlobalRace,
            fmt::format("data race on global memory: this {} conflicts with a write by block {} {} in the same launch "
                        "(no barrier orders them)",
                        op_name(op), w.thread / L.threads_per_block, thread_name(b, w.thread % L.threads_per_block)),
            t, site, a, memory().nearest(a)->describe());
    Stamp r = Stamp::of(rref.load(std::memory_order_relaxed));
    if (op == MemOp::Store && r.tag == L.tag && (r.thread != me || (r.epoch & 0x8000)) && !ordered(r.thread, r.epoch))
      fault(DiagKind::GlobalRace,
            fmt::format("data race on global memory: this write conflicts with a read by {} in the same launch",
                        r.thread == kManyBlocks ? std::string("threads of other blocks")
                                                : fmt::format("block {} {}", r.thread / L.threads_per_block,
                                                              thread_name(b, r.thread % L.threads_per_block))),
            t, site, a, memory().nearest(a)->describe());
    if (op == MemOp::Store) {
      wref.store(Stamp{L.tag, epoch, me}.pack(), std::memory_order_relaxed);
    } else {
      Stamp n{L.tag, epoch, me};
      if (r.tag == L.tag && r.thread != me) {
        if (r.thread == kManyBlocks || r.thread / L.threads_per_block != b.linear) n.thread = kManyBlocks;
        else if ((r.epoch & 0x7FFF) == epoch) n = {L.tag, std::uint16_t(epoch | 0x8000), r.thread};
      } else if (r.tag == L.tag && r.thread == me && (r.epoch & 0x7FFF) == epoch) {
        n = r;
      }
      if (n.pack() != r.pack()) rref.store(n.pack(), std::memory_order_relaxed);  // no write, no cache-line ping-pong
    }
  }
}

void global_access(ThreadState* t, std::uintptr_t a, unsigned size, MemOp op, Site site) {
  Worker& w = *t->block->worker;
  const LaunchContext& L = *t->block->launch;
  const Allocation* alloc = w.last_allocation;
  if (!alloc || a < alloc->base || a + size > alloc->base + alloc->size || !alloc->live) {
    alloc = memory().find(a, size);
    if (!alloc) {
      const Allocation* near = memory().nearest(a);
      std::string where =
          !near ? "no allocation"
          : a < near->base ? fmt::format("{} bytes before the start of {}", near->base - a, near->describe())
          : !near->live    ? fmt::format("inside {}: use after cudaFree", near->describe())
                           : fmt::format("{} bytes past the end of {}", a + size - (near->base + near->size),
                                         near->describe());
      fault(DiagKind::OutOfBoundsGlobal,
            fmt::format("out-of-bounds global {} of {} bytes at 0x{:x}: {}", op_name(op), size, a, where), t, site, a,
            near ? near->describe() : "");
    }
    w.last_allocation = alloc;
  }
  if (op != MemOp::Atomic && checks().races) check_global_race(t, L, a, size, op, site);
  account_dram(w, L, a, size, op);
  t->mem_log.push_back(MemEvent::make(site, a, size, op, Space::Global));
}

void shared_access(ThreadState* t, SharedWindow& win, std::uintptr_t a, unsigned size, MemOp op, Site site) {
  BlockState& b = *t->block;
  const Checks& on = checks();
  SharedWindows& sw = *b.shared;
  if (&win == &sw.dynamic && a + size > win.lo + sw.dynamic_bytes)
    fault(DiagKind::OutOfBoundsShared,
          fmt::format("out-of-bounds shared {} of {} bytes: {} (launch asked for {} bytes of dynamic shared memory)",
                      op_name(op), size, sw.describe(a), sw.dynamic_bytes),
          t, site, a);
  if (&win == &sw.statics && !sw.statics_allowed(a, size))
    fault(DiagKind::OutOfBoundsShared,
          fmt::format("out-of-bounds shared {} of {} bytes at 0x{:x}: {}", op_name(op), size, a, sw.describe(a)), t,
          site, a);
  if (op != MemOp::Atomic && (on.races || on.uninitialized)) {
    const std::uint32_t wsync = b.warps[t->warp].sync_count;
    auto synced = [&](std::uint32_t other, std::uint32_t other_wsync) {  // ordered by __syncwarp & co.
      return other / 32 == t->warp && b.warps[t->warp].sync_count > other_wsync;
    };
    for (std::uintptr_t w = a & ~std::uintptr_t(3); w < a + size; w += 4) {
      SharedShadow& s = win.at(w);
      const bool written = s.written == sw.serial;
      const bool read_now = s.read == sw.serial && s.r_epoch == b.epoch;
      if (on.races && written && s.w_epoch == b.epoch && s.w_thread != t->linear && !synced(s.w_thread, s.w_wsync))
        fault(DiagKind::SharedRace,
              fmt::format("data race on shared memory: this {} and a write by {} happen between the same two "
                          "barriers ({}); a __syncthreads() is missing",
                          op_name(op), thread_name(b, s.w_thread), sw.describe(w)),
              t, site, w);
      if (op == MemOp::Store) {
        if (on.races && read_now && (s.r_thread != t->linear) &&
            (s.r_thread == kManyReaders || !synced(s.r_thread, s.r_wsync)))
          fault(DiagKind::SharedRace,
                fmt::format("data race on shared memory: this write and a read by {} happen between the same two "
                            "barriers ({}); a __syncthreads() is missing",
                            s.r_thread == kManyReaders ? std::string("other threads") : thread_name(b, s.r_thread),
                            sw.describe(w)),
                t, site, w);
        s.written = sw.serial;
        s.w_thread = t->linear;
        s.w_epoch = b.epoch;
        s.w_wsync = wsync;
      } else {
        if (!written) sw.pending.push_back({w, t->linear, b.epoch, site});
        if (read_now && s.r_thread != t->linear) s.r_thread = kManyReaders;
        else if (!read_now) s.r_thread = t->linear;
        s.read = sw.serial;
        s.r_epoch = b.epoch;
        s.r_wsync = wsync;
      }
    }
  }
  t->mem_log.push_back(MemEvent::make(site, a, size, op, Space::Shared));
}

}  // namespace

namespace detail {

void on_access(const void* p, unsigned size, MemOp op) {
  Site site = __builtin_return_address(0);
  ThreadState* t = t_thread;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if ((size & (size - 1)) == 0 && (a & (size - 1)) != 0)  // sizes are powers of two: no division
    fault(DiagKind::Misaligned,
          fmt::format("misaligned {}-byte {} at 0x{:x}: the address must be a multiple of {}", size, op_name(op), a,
                      size),
          t, site, a);
  if (memory().contains(a)) return global_access(t, a, size, op, site);
  SharedWindows& sw = *t->block->shared;
  if (sw.statics.contains(a)) return shared_access(t, sw.statics, a, size, op, site);
  if (sw.dynamic.contains(a)) return shared_access(t, sw.dynamic, a, size, op, site);
  fault(DiagKind::InvalidAddress,
        fmt::format("{} of {} bytes at 0x{:x}, which is neither device memory nor this thread's stack (a host "
                    "pointer passed to the kernel?)",
                    op_name(op), size, a),
        t, site, a);
}

void on_fp(FpOp op) { t_thread->ops.add(__builtin_return_address(0), static_cast<std::uint32_t>(op)); }

}  // namespace detail

}  // namespace simt
