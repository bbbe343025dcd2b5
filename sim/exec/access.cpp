// The accesses the inlined path in sim/state/context.hpp does not settle land here:
// classify the address, check what must be checked at once (alignment, bounds),
// and file the access in the warp's log. A convergent warp's rows get the other
// checks and the DRAM estimate at the barrier; a divergent warp's get them now.
#include "sim/state/context.hpp"
#include "sim/exec/spin_watch.hpp"
#include "sim/check/global_checks.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/check/shared_checks.hpp"
#include "sim/exec/worker.hpp"
#include "sim/count/dram_estimate.hpp"
#include "sim/exec/devices.hpp"
#include "sim/state/launch_context.hpp"

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

// In the device malloc heap the bounds are the block's (device_heap.hpp): the heap's
// pages never pass the inlined check, so every heap access comes here.
void check_heap_block(ThreadState* t, std::uintptr_t a, unsigned size, MemOp op, Site site, const Allocation& heap) {
  const std::string outside = DeviceHeap::of(heap.device).outside_block(a, size);
  if (outside.empty()) return;
  fault(DiagKind::OutOfBoundsGlobal, fmt::format("out-of-bounds global {} of {} bytes at 0x{:x}: {}", op_name(op), size,
                                                 a, outside),
        t, site, a, heap.describe());
}

// Another GPU's memory (one address space for all GPUs, as under UVA). A GPU reaches
// it only after cudaDeviceEnablePeerAccess from the GPU the kernel runs on to the
// owner, and faults otherwise (an illegal address, sticky: cudaErrorIllegalAddress);
// with peer access the bytes cross the link between the two GPUs.
__attribute__((noinline)) void access_peer(ThreadState* t, const Allocation* al, std::uintptr_t a, unsigned size,
                                           MemOp op, Site site) {
  const int here = t->block->launch->device, owner = al->device;
  if (!peer_access_enabled(here, owner))
    fault(DiagKind::InvalidAddress,
          fmt::format("{} of {} bytes at 0x{:x} in {}, which is GPU {}'s memory: this kernel runs on GPU {}, which has "
                      "not enabled peer access to GPU {} (cudaSetDevice({}); cudaDeviceEnablePeerAccess({}, 0) before "
                      "the launch); a GPU faults here with cudaErrorIllegalAddress",
                      op_name(op), size, a, al->describe(), owner, here, owner, here, owner),
          t, site, a, al->describe());
  if (op != MemOp::Store) add_kernel_peer_bytes(owner, here, size);  // what is read comes back
  if (op != MemOp::Load) add_kernel_peer_bytes(here, owner, size);   // what is written goes there
}

// Bounds: the address must lie in a live allocation (faults otherwise), and one of
// the launch's GPU or managed memory unless peer access allows it.
void check_global_bounds(ThreadState* t, std::uintptr_t a, unsigned size, MemOp op, Site site) {
  Worker& w = *t->block->worker;
  auto fits = [&](const Allocation* al) {
    return al && a - al->base < al->size && a + size <= al->base + al->size && al->live;
  };
  const Allocation* alloc = w.recent_allocations[0];
  if (!fits(alloc)) {  // kernels mostly alternate between a few arrays: keep the last two
    alloc = w.recent_allocations[1];
    if (!fits(alloc)) alloc = memory().find(a, size);
    if (!alloc) {
      const Allocation* near = memory().nearest(a);
      std::string where =
          !near ? "no allocation"
          : a < near->base ? fmt::format("{} bytes before the start of {}", near->base - a, near->describe())
          : !near->live    ? fmt::format("inside {}: use after {}", near->describe(),
                                         near->freed_by_reset ? "cudaDeviceReset" : "cudaFree")
                           : fmt::format("{} bytes past the end of {}", a + size - (near->base + near->size),
                                         near->describe());
      fault(DiagKind::OutOfBoundsGlobal,
            fmt::format("out-of-bounds global {} of {} bytes at 0x{:x}: {}", op_name(op), size, a, where), t, site, a,
            near ? near->describe() : "");
    }
    w.recent_allocations[1] = w.recent_allocations[0];
    w.recent_allocations[0] = alloc;
  }
  if (alloc->heap) check_heap_block(t, a, size, op, site, *alloc);
  if (alloc->device != t->block->launch->device && !alloc->managed && !alloc->host) access_peer(t, alloc, a, size, op, site);
}

// A divergent warp: per-lane logs, and the checks rows would get at the barrier done now.
__attribute__((noinline)) void record_divergent(ThreadState* t, Site site, std::uintptr_t a, unsigned size, MemOp op,
                                                Space space) {
  WarpLog& log = *t->log;
  if (log.full(t->lane)) {  // wait until the warp's log is counted, then file the access afresh
    wait_for_log_flush(t);
    if (log.record(t->lane, site, a, WarpLog::shape(size, op, space, log.sync_count))) return;
  }
  // The spin watchdog: loads that open a row are watched there (warp_log.cpp), a
  // divergent warp's here.
  if (op == MemOp::Load) watch_load(t, site, a);
  BlockState& b = *t->block;
  const AddressMap& m = t_address_map;
  const SharedCheckFlags on{m.races, m.uninitialized};
  if (!log.divergent()) {  // the rows so far get their deferred checks before they become lane logs
    b.worker->process_rows(b, t->warp, on, false);
    log.diverge();
  }
  if (space == Space::Global) {
    if (!is_atomic(op) && on.races) check_global_race(b, t->linear, a, size, op, site);
    if (const std::uint32_t read = account_dram(b.worker->totals, b.launch->serial, a, size, op))
      b.worker->site_counters(site)[Counter::DramReadBytes] += read;
  } else if (!is_atomic(op)) {
    check_shared_access(b, *b.shared, a, size, op, {static_cast<std::uint16_t>(t->linear), log.sync_count, site}, on);
  }
  log.lane_log(t->lane).push_back(MemEvent::make(site, a, size, op, space));
}

// Files the access in the warp's rows; off the fast path once the warp diverges.
SIMT_INLINE void record(ThreadState* t, Site site, std::uintptr_t a, unsigned size, MemOp op, Space space) {
  WarpLog& log = *t->log;
  if (log.record(t->lane, site, a, WarpLog::shape(size, op, space, log.sync_count))) return;
  record_divergent(t, site, a, size, op, space);
}

[[noreturn]] __attribute__((noinline)) void shared_out_of_bounds(std::uintptr_t a, unsigned size, MemOp op, Site site) {
  ThreadState* t = t_thread;
  SharedWindows& sw = *t->block->shared;
  if (sw.dynamic.contains(a))
    fault(DiagKind::OutOfBoundsShared,
          fmt::format("out-of-bounds shared {} of {} bytes: {} (launch asked for {} bytes of dynamic shared memory)",
                      op_name(op), size, sw.describe(a), sw.dynamic_bytes),
          t, site, a);
  fault(DiagKind::OutOfBoundsShared,
        fmt::format("out-of-bounds shared {} of {} bytes at 0x{:x}: {}", op_name(op), size, a, sw.describe(a)), t,
        site, a);
}

[[noreturn]] __attribute__((noinline)) void misaligned(std::uintptr_t a, unsigned size, MemOp op, Site site) {
  fault(DiagKind::Misaligned,
        fmt::format("misaligned {}-byte {} at 0x{:x}: the address must be a multiple of {}", size, op_name(op), a,
                    size),
        t_thread, site, a);
}

// Near the block's __shared__ variables it is an index past an array's end (the
// common mistake), far from everything a host pointer or a wild index.
[[noreturn]] __attribute__((noinline)) void invalid_address(std::uintptr_t a, unsigned size, MemOp op, Site site) {
  ThreadState* t = t_thread;
  if (const std::string near = t->block->shared->describe_near_statics(a); !near.empty())
    fault(DiagKind::OutOfBoundsShared, fmt::format("out-of-bounds shared {} of {} bytes: {}", op_name(op), size, near),
          t, site, a);
  fault(DiagKind::InvalidAddress,
        fmt::format("{} of {} bytes at 0x{:x}, which is no device memory, no shared memory and not this thread's "
                    "stack: a host pointer passed to the kernel, or an index far outside its array",
                    op_name(op), size, a),
        t, site, a);
}

}  // namespace

thread_local constinit AddressMap t_address_map SIMT_FAST_TLS;

namespace detail {

// The order of the tests follows how often each kind of access comes: a tiled
// kernel's inner loop reads static __shared__ tiles; most others touch global memory.
void on_access_here(const void* p, unsigned size, MemOp op) { on_access(p, size, op, __builtin_return_address(0)); }

void on_access(const void* p, unsigned size, MemOp op, Site site) {
  if (!t_thread) return;  // host code
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if ((a & (size - 1)) != 0 && (size & (size - 1)) == 0) misaligned(a, size, op, site);  // sizes are powers of two
  const AddressMap& m = t_address_map;
  if (a - m.statics_lo < m.statics_size) {
    if (!detail::statics_allowed(m, a, size)) shared_out_of_bounds(a, size, op, site);
    return record(t_thread, site, a, size, op, Space::Shared);
  }
  if (a - m.global_lo < m.global_size) {
    ThreadState* t = t_thread;
    check_global_bounds(t, a, size, op, site);
    return record(t, site, a, size, op, Space::Global);
  }
  if (a - m.dynamic_lo < m.dynamic_reserved) {
    if (a + size > m.dynamic_lo + m.dynamic_bytes) shared_out_of_bounds(a, size, op, site);
    return record(t_thread, site, a, size, op, Space::Shared);
  }
  invalid_address(a, size, op, site);
}

void on_fp(FpOp op) { t_thread->ops.add(__builtin_return_address(0), static_cast<std::uint32_t>(op)); }

void dram_uncounted(std::uintptr_t a, unsigned size, MemOp op) {
  if (ThreadState* t = t_thread) account_dram(t->block->worker->totals, t_address_map.serial, a, size, op);
}

}  // namespace detail

}  // namespace simt

// An index past a local array (sim/compiler/pass/local_bounds.hpp): the pass calls this
// before the access, which then never happens. On the host (a __host__ __device__
// function called there) it returns: host C++ keeps its own rules.
extern "C" void __simt_local_out_of_bounds_at(std::int64_t offset, std::uint64_t size, std::uint64_t bytes,
                                              unsigned op, simt::Site site) {
  simt::ThreadState* t = simt::t_thread;
  if (!t) return;
  const auto mem_op = static_cast<simt::MemOp>(op);
  // In elements of the access's size where the array is made of them (int a[4]: 4 of 4 bytes).
  const std::string element =
      size % bytes == 0 ? fmt::format(" (element {} of {})", offset / std::int64_t(bytes), size / bytes) : "";
  simt::fault(simt::DiagKind::OutOfBoundsLocal,
              fmt::format("out-of-bounds local {} of {} bytes at byte {} of a {}-byte array declared in the kernel{}",
                          simt::op_name(mem_op), bytes, offset, size, element),
              t, site, 0);
}

// A read of a __shared__ array nothing in the program writes (the optimizer would fold it
// to zero: sim/compiler/pass/unwritten_shared.hpp). Reported as the uninitialised-read
// check reports one; with that check off (SIMT_OPTIONS=uninitialized=0) the read goes on
// and gives zero.
extern "C" void __simt_unwritten_shared_read_at(const char* array, simt::Site site) {
  simt::ThreadState* t = simt::t_thread;
  if (!t || !simt::t_address_map.uninitialized) return;
  simt::fault(simt::DiagKind::UninitializedShared,
              fmt::format("read of __shared__ array {}, which nothing in the program writes; a GPU reads whatever "
                          "the memory holds: if the value is never used, SIMT_OPTIONS=uninitialized=0 lets the "
                          "launch run on",
                          array),
              t, site, 0);
}
