// The entry points the compiler front end's pass calls (sim/compiler/pass/):
// every access and floating-point operation of device code comes here with its
// site, and goes on into the simulator's access paths (sim/exec/access.cpp).
#include "sim/state/block.hpp"
#include "sim/check/release_acquire.hpp"
#include "sim/symbols/compiler_sites.hpp"
#include "sim/exec/plain_twin.hpp"
#include "sim/exec/spin_watch.hpp"
#include "sim/state/context.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/exec/worker.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace simt {

// The extern __shared__ buffer of the block running on this thread (SIMT_DYNAMIC_SHARED,
// sim/compiler/include/simt_cuda/device_builtins.h).
void* dynamic_shared_base() {
  ThreadState* t = current_thread();
  return t ? reinterpret_cast<void*>(t->block->shared->dynamic.lo) : nullptr;
}

thread_local constinit SpinWatch t_spin SIMT_FAST_TLS;

void spin_detected(ThreadState* t, Site site, std::uintptr_t a) {
  t_spin = {};
  const std::string what =
      site == kAtomicSpinSite
          ? fmt::format("watchdog: this thread's atomics left the word at 0x{:x} unchanged {} times in a row without "
                        "reaching a barrier: a lock nobody releases, or a flag nobody sets (a failing atomicCAS "
                        "loop)",
                        a, kSpinLimit)
          : fmt::format("watchdog: this thread read the word at 0x{:x} {} times in a row here without reaching a "
                        "barrier: a spin-wait for a write that never comes (blocks of a launch may run in any order, "
                        "on the GPU too)",
                        a, kSpinLimit);
  throw KernelFault(t->block->make_diag(DiagKind::Deadlock, what, t, site == kAtomicSpinSite ? nullptr : site));
}

const std::uint64_t g_watchdog_insts = runtime_options().watchdog_insts;

void spin_wants_yield(ThreadState* t, Site site, std::uintptr_t a) {
  t_spin = {};
  if (t->spin_addr != a || t->spin_site != site) t->spin_yields = 0;
  t->spin_addr = a;
  t->spin_site = site;
  if (++t->spin_yields >= kSpinLimit / kSpinYieldEvery) spin_detected(t, site, a);
  if (t->yield_pending) return;
  t->yield_pending = true;
  t->insts_kept = t->insts_left;
  t->insts_left = -1;  // the next basic block's count_block lands in inst_budget_exceeded
}

void inst_budget_exceeded(ThreadState* t, Site site) {
  if (t->yield_pending) {
    t->yield_pending = false;
    t->insts_left = t->insts_kept;
    yield_thread(t);  // runnable still: it continues its spin once the others have run
    return;
  }
  renew_inst_budget(t);
  throw KernelFault(t->block->make_diag(
      DiagKind::Deadlock,
      fmt::format("watchdog: this thread ran {} instructions (estimated) here without reaching a barrier: a loop "
                  "that never ends, or waits on a condition nothing changes (simt exec --watchdog-insts N, or "
                  "SIMT_OPTIONS=watchdog_insts=N, for a larger budget)",
                  g_watchdog_insts),
      t, site));
}

// A fence within the block (sim/check/release_acquire.hpp): a thread that observed
// another warp's release through a flag takes it here. The first time in an interval,
// every warp's accesses so far get their deferred checks (before the ordering exists)
// and the warps go on checked as they run, so that an access is ordered by the
// releases its thread had taken when it ran.
void block_fence(ThreadState* t) {
  note_block_fence(t);
  if (!flag_acquire_pending(t)) return;
  BlockState& b = *t->block;
  if (!b.flag_ordering()) {
    const AddressMap& m = t_address_map;
    const SharedCheckFlags on{m.races, m.uninitialized};
    for (unsigned w = 0; w < b.nwarps; ++w)
      if (!b.logs[w].divergent()) {
        b.worker->process_rows(b, w, on, false);
        b.logs[w].diverge();
      }
  }
  flag_acquire(t);
}

}  // namespace simt

using simt::MemOp;
using simt::Site;

extern "C" {

// A kernel's first call (pass/host_entry.cpp). On a simulated thread: run. On the
// host's own thread: note which kernel this is and return at once — a launch's probe
// learns the kernel a call resolves to this way (sim/cuda/launch.hpp), and a kernel
// called like a host function launches nothing, as nvcc's stub without a configuration.
thread_local const void* t_host_entered_kernel = nullptr;
bool __simt_kernel_entry(const void* self) {
  if (simt::t_thread) return true;
  t_host_entered_kernel = self;
  return false;
}
const void* __simt_take_host_entered_kernel() { return std::exchange(t_host_entered_kernel, nullptr); }

// The pass's keep marker at a kernel's entry (pass/host_entry.cpp), removed at the end
// of the optimizer; defined for a pipeline that stops before that.
void __simt_kernel_keep() {}

// The out-of-line entry, for modules without simtlab's CUDA headers (whose inlined
// copy is simt_cuda/hooks.h: keep the two alike). Returns where the access reads or
// writes (the host mapping of a device address).
void* __simt_access(const void* p, unsigned size, unsigned op, Site site) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (a - simt::t_stack_lo < simt::t_stack_size) return const_cast<void*>(p);  // the thread's own locals
  simt::ThreadState* t = simt::t_thread;
  if (!t) return const_cast<void*>(p);  // host code calling a __host__ __device__ function
  std::uintptr_t at = a;
  if (simt::detail::record_fast(a, size, MemOp(op), site, at)) return reinterpret_cast<void*>(at);
  simt::detail::on_access(p, size, MemOp(op), site);
  return reinterpret_cast<void*>(simt::detail::host_address(a));
}

// A volatile load or store (pass/instrument.cpp): an access as any other, and a flag
// for the race check's ordering between warps of a block (sim/check/release_acquire.hpp).
void* __simt_access_volatile(const void* p, unsigned size, unsigned op, Site site) {
  void* at = __simt_access(p, size, op, site);
  simt::ThreadState* t = simt::t_thread;
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  if (!t || a - simt::t_stack_lo < simt::t_stack_size) return at;
  if (MemOp(op) == MemOp::Store) simt::flag_store(t, a);
  else if (MemOp(op) == MemOp::Load) simt::flag_load(t, a);
  return at;
}

// The out-of-line copy of simt_cuda/hooks.h's __simt_access_nonlocal_inline: the
// stack test is the only difference, and a local never reaches on_access anyway.
void* __simt_access_nonlocal(const void* p, unsigned size, unsigned op, Site site) {
  return __simt_access(p, size, op, site);
}

// Everything the inlined fast path does not settle. (The spin watchdog sees loads
// where they open a row of the warp log or are filed for a divergent warp:
// sim/exec/warp_log.cpp, sim/exec/access.cpp.) A checked access (it returns)
// goes on through the host mapping; outside kernels the address is kept, so host
// code reading a device pointer faults in the guarded view.
void* __simt_access_slow(const void* p, unsigned size, unsigned op, Site site) {
  simt::ThreadState* t = simt::t_thread;
  if (!t) return const_cast<void*>(p);
  simt::detail::on_access(p, size, MemOp(op), site);
  return reinterpret_cast<void*>(simt::detail::host_address(reinterpret_cast<std::uintptr_t>(p)));
}

// The out-of-line copy of simt_cuda/hooks.h's __simt_translate_inline.
void* __simt_translate(const void* p) {
  return reinterpret_cast<void*>(simt::detail::host_address(reinterpret_cast<std::uintptr_t>(p)));
}

// The out-of-line copy of simt_cuda/hooks.h's __simt_translate_dram_inline.
void* __simt_translate_dram(const void* p, unsigned size, unsigned op, std::uint64_t* last_sector) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const simt::AddressMap& m = simt::t_address_map;
  if (a - m.global_lo >= m.global_size) return const_cast<void*>(p);
  if ((a >> 5) != *last_sector) {
    simt::detail::account_dram_fast(m, a, size, MemOp(op));
    *last_sector = (a & 31) + size <= 32 ? a >> 5 : ~std::uint64_t(0);
  }
  if (--simt::t_plain_pace_left == 0) __simt_plain_pace();
  return reinterpret_cast<void*>(a + m.global_size);
}

// The plain twin's memcpy and memset: the range translated, its sectors given to the
// DRAM estimate.
void* __simt_translate_dram_range(const void* p, std::uint64_t bytes, unsigned op) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const simt::AddressMap& m = simt::t_address_map;
  if (a - m.global_lo >= m.global_size || bytes == 0) return const_cast<void*>(p);
  for (std::uint64_t at = a & ~std::uint64_t(31); at < a + bytes; at += 32)
    simt::detail::dram_uncounted(at, 32, MemOp(op));
  return reinterpret_cast<void*>(a + m.global_size);
}

// memcpy/memset in device code: the accesses a GPU would make, in aligned pieces.
// Returns where the range lies (one allocation: one translation for all of it).
void* __simt_access_range(const void* p, std::uint64_t bytes, unsigned align, unsigned op, Site site) {
  unsigned piece = 16;
  while (piece > 1 && (piece > align || bytes % piece != 0)) piece /= 2;
  const char* c = static_cast<const char*>(p);
  for (std::uint64_t at = 0; at < bytes; at += piece) __simt_access(c + at, piece, op, site);
  return simt::t_thread ? reinterpret_cast<void*>(simt::detail::host_address(reinterpret_cast<std::uintptr_t>(p)))
                        : const_cast<void*>(p);
}

// The out-of-line copy of simt_cuda/hooks.h's __simt_block_inline.
void __simt_block(unsigned quarters, Site site) {
  if (simt::ThreadState* t = simt::t_thread) simt::count_block(t, quarters, site);
}

void __simt_fp(unsigned op, Site site) {
  if (simt::ThreadState* t = simt::t_thread) t->ops.add(site, op);
}

// The fp16/bf16 operations of simtlab's headers (simt_cuda/narrow_ops.h), at the user's line.
#define SIMT_FP_MARKER(name, op) \
  void __simt_fp_##name##_at(Site site) { __simt_fp(unsigned(simt::FpOp::op), site); }
SIMT_FP_MARKER(hadd, HAdd)
SIMT_FP_MARKER(hmul, HMul)
SIMT_FP_MARKER(hfma, HFma)
SIMT_FP_MARKER(hadd2, HAdd2)
SIMT_FP_MARKER(hmul2, HMul2)
SIMT_FP_MARKER(hfma2, HFma2)
SIMT_FP_MARKER(fadd, FAdd)
SIMT_FP_MARKER(fmul, FMul)
SIMT_FP_MARKER(ffma, FFma)
#undef SIMT_FP_MARKER

// An integer or conversion instruction of simtlab's headers (simt_cuda/markers.h): the
// instruction estimate has counted it already.
void __simt_sass_at(Site) {}

// A CUDA feature simtlab's headers know but the simulator cannot run (a grid-wide
// barrier: blocks do not all run at once here): the launch fails, naming the line.
void __simt_unsupported_at(const char* what, Site site) {
  simt::ThreadState* t = simt::current_thread();
  if (!t) {
    std::fprintf(stderr, "simt: %s\n", what);
    std::abort();
  }
  throw simt::KernelFault(t->block->make_diag(simt::DiagKind::Unsupported, what, t, site));
}

void* __simt_access_at(const void* p, unsigned size, unsigned op, Site site) { return __simt_access(p, size, op, site); }

void __simt_barrier_at(int value, Site site) {
  if (!simt::t_thread) {
    std::fprintf(stderr, "simt: __syncthreads() called outside a kernel; ignored\n");
    return;
  }
  simt::renew_inst_budget(simt::t_thread);
  simt::block_barrier(value, site);
}

// cooperative_groups::grid_group::sync() (sim/exec/grid_sync.hpp).
void __simt_grid_sync_at(Site site) {
  if (!simt::t_thread) {
    std::fprintf(stderr, "simt: grid_group::sync() called outside a kernel; ignored\n");
    return;
  }
  simt::renew_inst_budget(simt::t_thread);
  simt::grid_barrier(site);
}

// grid_group::is_valid(): true in a kernel launched by cudaLaunchCooperativeKernel.
int __simt_grid_is_valid() { return simt::launch_is_cooperative() ? 1 : 0; }

std::uint64_t __simt_collective_at(int kind, std::uint32_t mask, std::uint64_t value, int arg, int width, Site site) {
  if (!simt::t_thread) return value;  // host code: a no-op, as the GPU has no host warps
  simt::renew_inst_budget(simt::t_thread);
  return simt::warp_collective(simt::Collective(kind), mask, value, arg, width, site);
}

// __threadfence() and the two ends of an atomic: the global race check's view of
// blocks publishing to each other (sim/check/release_acquire.hpp).
void __simt_threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (simt::ThreadState* t = simt::t_thread) {
    simt::note_fence(t);
    simt::block_fence(t);
  }
}
// __threadfence_block(): ordering within the block only.
void __simt_threadfence_block() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (simt::ThreadState* t = simt::t_thread) simt::block_fence(t);
}
void __simt_atomic_begin(const void* word) {
  if (simt::ThreadState* t = simt::t_thread) simt::before_atomic(t, reinterpret_cast<std::uintptr_t>(word));
}
void __simt_atomic_end(const void* word, int changed) {
  simt::ThreadState* t = simt::t_thread;
  if (!t) return;
  const auto a = reinterpret_cast<std::uintptr_t>(word);
  simt::after_atomic(t, a);
  simt::flag_load(t, a);  // the atomic read the word: it observes what the word published
  if (changed) simt::flag_store(t, a);
  // An atomic that leaves the word as it was only reads it: repeated, a spin.
  if (!changed) simt::watch_atomic(t, a);
  else if (simt::t_spin.addr == a) simt::t_spin = {};
}

// The C library's assert, as the pass redirects it from compiled code: a library
// loaded by Python's ctypes would otherwise reach libc's __assert_fail, loaded
// first, and abort the interpreter. In a kernel the launch fails with
// cudaErrorAssert; on the host it aborts as usual.
void __simt_assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  simt::ThreadState* t = simt::current_thread();
  if (!t) {
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
    std::abort();
  }
  simt::Diagnostic d = t->block->make_diag(simt::DiagKind::DeviceAssert,
                                           fmt::format("device assertion `{}` failed", expr), t, nullptr);
  d.location = fmt::format("{}:{}", file, line);
  t->block->fail(std::move(d));
  simt::abandon_thread(t);
}

// The C library's assert itself, for code the pass did not redirect (a kernel built
// uninstrumented, as `simt bench`'s reference): the same behaviour.
void __assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  __simt_assert_fail(expr, file, line, function);
}

// __trap(): the GPU stops the kernel and the launch reports "unspecified launch
// failure" (cudaErrorLaunchFailure). On the host, where nvcc would not compile it,
// it aborts.
[[noreturn]] void __simt_trap(const char* file, unsigned line) {
  simt::ThreadState* t = simt::current_thread();
  if (!t) {
    std::fprintf(stderr, "%s:%u: __trap() called on the host\n", file, line);
    std::abort();
  }
  simt::Diagnostic d = t->block->make_diag(simt::DiagKind::Trap, "the kernel called __trap()", t, nullptr);
  d.location = fmt::format("{}:{}", file, line);
  t->block->fail(std::move(d));
  simt::abandon_thread(t);
}

// malloc and free in device code (the pass redirects them, device_heap_calls.hpp):
// the device heap of the GPU whose launch runs. A __host__ __device__ function
// running on the host gets the C library's.
void* __simt_device_malloc(std::size_t bytes) {
  if (!simt::current_thread()) return std::malloc(bytes);
  simt::DeviceHeap* heap = simt::DeviceHeap::running();
  return heap ? heap->allocate(bytes) : nullptr;
}

void __simt_device_free(void* p) {
  simt::ThreadState* t = simt::current_thread();
  if (!t) return std::free(p);
  if (!p) return;
  simt::DeviceHeap* heap = simt::DeviceHeap::running();
  if (heap && heap->release(p)) return;
  simt::Diagnostic d = t->block->make_diag(
      simt::DiagKind::InvalidAddress,
      fmt::format("free() of 0x{:x}, which device malloc did not return or which was freed already (device code's "
                  "free takes only what its malloc gave; cudaMalloc's memory is freed by cudaFree on the host)",
                  reinterpret_cast<std::uintptr_t>(p)),
      t, __builtin_return_address(0));
  d.address = reinterpret_cast<std::uintptr_t>(p);
  throw simt::KernelFault(std::move(d));
}

void __simt_program_uses_device_heap() { simt::note_program_uses_device_heap(); }

}  // extern "C"

int __simt_barrier_result() { return simt::t_thread->block->barrier_result; }
