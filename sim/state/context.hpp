// The state of the simulated thread that is running right now, and the inlined
// access path the pass's hooks take (touch). Everything a kernel touches goes through here.
#pragma once
#include "sim/types/events.hpp"
#include "sim/count/site_counts.hpp"
#include "sim/state/warp_log.hpp"
#include "sim/types/vector_types.hpp"

#include <cstdint>

#define SIMT_INLINE inline __attribute__((always_inline))

namespace simt {

struct BlockState;

struct ThreadState {
  uint3 thread_idx{};
  unsigned linear = 0;  // index within the block
  unsigned lane = 0, warp = 0;
  BlockState* block = nullptr;
  std::uintptr_t stack_lo = 0, stack_size = 0;  // the fiber stack: locals live here
  WarpLog* log = nullptr;  // of this thread's warp
  SiteCounts ops;
  // Estimated instructions (x 4) the thread may still run before its next barrier
  // or warp collective: the watchdog for spins that touch no memory
  // (sim/exec/spin_watch.hpp). A countdown, so the inlined check reads nothing else.
  std::int64_t insts_left = 0;
  bool abandoned = false;  // left parked forever (see abandon_thread)
  // A spin-wait on memory lets the block's other threads run (one of them may be the
  // writer it waits for): the word and site it waits on, how many times it has let
  // them run since its last barrier, and the budget kept while a yield is pending.
  std::uintptr_t spin_addr = 0;
  const void* spin_site = nullptr;
  std::uint32_t spin_yields = 0;
  bool yield_pending = false;
  std::int64_t insts_kept = 0;
  // With insts_left, the thread's estimated instructions (x 4) since its block began:
  // clock_base - insts_left (sim/exec/spin_watch.hpp, thread_quarters), what device
  // clock64() reads.
  std::int64_t clock_base = 0;
  // Thread-level ordering within the block (sim/check/release_acquire.hpp), for the
  // barrier interval `flag_epoch` - 1 (0: none yet): whether the thread has fenced,
  // the warps whose releases it observed through a flag and has not yet taken with a
  // fence, and those it took (every access they made in the interval is ordered before
  // this thread's accesses from then on).
  std::uint32_t flag_epoch = 0;
  bool fenced = false;
  std::uint32_t observed_warps = 0, acquired_warps = 0;
};

// Describes the launch a thread belongs to; read by threadIdx/blockIdx etc.
struct LaunchGeometry {
  dim3 grid, block;
};

// initial-exec: these are read on every access; the general TLS model would cost
// a __tls_get_addr call each time inside the shared library.
#define SIMT_FAST_TLS __attribute__((tls_model("initial-exec")))
// constinit: no dynamic initialisation, so reads need no TLS-wrapper call check.
extern thread_local constinit ThreadState* t_thread SIMT_FAST_TLS;  // null outside kernels
extern thread_local constinit const LaunchGeometry* t_geometry SIMT_FAST_TLS;
extern thread_local constinit uint3 t_block_idx SIMT_FAST_TLS;
// The running thread's fiber stack, where its locals live: copied here from the
// ThreadState so that the most frequent test (a local, not device memory) reads
// no pointer first. Empty outside kernels.
extern thread_local constinit std::uintptr_t t_stack_lo SIMT_FAST_TLS, t_stack_size SIMT_FAST_TLS;

SIMT_INLINE void set_current_thread(ThreadState* t) {
  t_thread = t;
  t_stack_lo = t ? t->stack_lo : 0;
  t_stack_size = t ? t->stack_size : 0;
}

SIMT_INLINE ThreadState* current_thread() { return t_thread; }

// A worker's map of the simulated device's memory, read on every access. It is
// thread-local (one worker = one host thread) so that classifying an address is a
// few comparisons against values at fixed offsets, with no pointer chasing.
struct AddressMap {
  std::uintptr_t global_lo = 0, global_size = 0;    // the cudaMalloc arena
  const std::uint16_t* global_page_bytes = nullptr; // per 4 KiB page: bytes inside a live allocation
  std::uintptr_t statics_lo = 0, statics_size = 0;  // this worker's __shared__ variables
  const std::uint8_t* statics_allowed = nullptr;    // per word: a variable this launch may use
  std::uintptr_t dynamic_lo = 0, dynamic_bytes = 0, dynamic_reserved = 0;  // extern __shared__
  bool races = true, uninitialized = true;          // the launch's sanitizer switches
  // The DRAM estimate's per-sector flags (sim/count/dram_estimate.cpp), indexed from
  // global_lo, and this launch's number in them: read by the plain twin's accesses.
  const std::uint32_t* sector_flags = nullptr;
  std::uint32_t serial = 0;
};
extern thread_local constinit AddressMap t_address_map SIMT_FAST_TLS;

// The plain twin's pace (sim/exec/plain_twin.cpp): global accesses the lane of an
// uncounted block that runs now may still make before it lets the block's other
// lanes catch up.
extern thread_local constinit std::uint32_t t_plain_pace_left SIMT_FAST_TLS;

// The address of the instruction after this point in the compiled kernel: a
// per-call-site key for counters, taken without a call (an inlined function has no
// return address of its own). Resolved to a source line like a return address.
// GCC only: clang keeps the instruction but may give it a merged debug location
// without the inlining chain, so its line would be lost; clang builds take the
// out-of-line path, which names sites by return address (slower, same counts).
#if defined(__GNUC__) && !defined(__clang__)
#if defined(__x86_64__)
#define SIMT_CODE_ADDRESS(out) asm volatile("leaq 0(%%rip), %0" : "=r"(out))
#elif defined(__aarch64__)
#define SIMT_CODE_ADDRESS(out) asm volatile("adr %0, 1f\n1:" : "=r"(out))
#endif
#endif

namespace detail {
// Everything the inline path below does not settle: global memory, faults,
// divergent warps. sim/exec/access.cpp.
void on_access(const void* p, unsigned size, MemOp op, Site site);
// The same, naming the call site by its return address (targets without SIMT_CODE_ADDRESS).
__attribute__((noinline)) void on_access_here(const void* p, unsigned size, MemOp op);
__attribute__((noinline)) void on_fp(FpOp op);

// Every word of the aligned access [a, a+size), which starts in the statics window,
// lies in a __shared__ variable this launch may use. The table is padded past the
// window's end; size is a constant where this is inlined, so the loop unrolls.
SIMT_INLINE bool statics_allowed(const AddressMap& m, std::uintptr_t a, unsigned size) {
  const std::uintptr_t word = (a - m.statics_lo) >> 2;
  // One word, said plainly: clang compiled the loop below for size 4 into a
  // counting loop that runs no iteration but still costs ten instructions.
  if (size <= 4) return m.statics_allowed[word] != 0;
  for (unsigned i = 0; i < (size + 3) / 4; ++i)
    if (!m.statics_allowed[word + i]) return false;
  return true;
}

// The common case, inlined into kernel code: an aligned access inside a live
// allocation or a __shared__ variable the launch may use, by a convergent warp.
// It only files the access in the warp's row (opening it if this lane is the
// first); bounds are settled here, everything else runs on whole rows at the
// barrier. Every lane of a convergent warp takes this same path: a lane that took
// the out-of-line path could continue in a copy of the following code that the
// compiler duplicated, and its next sites would differ from the other lanes'.
// Outside kernels the address map is empty, so this never reads t_thread there.
// `at` becomes where the bytes can be read: the host mapping of a global address
// (sim/memory/global_memory.hpp), `a` itself for shared memory.
SIMT_INLINE bool record_fast(std::uintptr_t a, unsigned size, MemOp op, Site site, std::uintptr_t& at) {
  const AddressMap& m = t_address_map;
  if ((a & (size - 1)) != 0) return false;
  Space space = Space::Shared;
  if (a - m.statics_lo < m.statics_size) {
    if (!statics_allowed(m, a, size)) return false;
  } else if (a - m.global_lo < m.global_size) {
    // Bytes of the 4 KiB page that lie inside a live allocation, from its start.
    if ((a & 4095) + size > m.global_page_bytes[(a - m.global_lo) >> 12]) return false;
    space = Space::Global;
    at = a + m.global_size;
  } else if (a - m.dynamic_lo >= m.dynamic_bytes || a + size > m.dynamic_lo + m.dynamic_bytes) {
    return false;
  }
  ThreadState* t = t_thread;
  WarpLog& log = *t->log;
  return log.record(t->lane, site, a, WarpLog::shape(size, op, space, log.sync_count));
}
SIMT_INLINE bool record_fast(std::uintptr_t a, unsigned size, MemOp op, Site site) {
  std::uintptr_t at = a;
  return record_fast(a, size, op, site, at);
}

// The DRAM estimate for an access of an uncounted block (a sampled launch's plain
// twin): nothing to do when the launch already has this sector's read (or write);
// otherwise the worker's slow path, which also marks it touched.
void dram_uncounted(std::uintptr_t a, unsigned size, MemOp op);
SIMT_INLINE bool dram_already_seen(const AddressMap& m, std::uintptr_t a, unsigned size, MemOp op) {
  const std::uint32_t want = op == MemOp::Store ? 2u : 1u;
  const std::uint32_t f = m.sector_flags[(a - m.global_lo) >> 5];
  const bool seen = (f >> 2) == m.serial && ((f & want) == want || (want == 1u && (f & 2u)));
  return seen && (a & 31) + size <= 32;
}
SIMT_INLINE void account_dram_fast(const AddressMap& m, std::uintptr_t a, unsigned size, MemOp op) {
  if (!dram_already_seen(m, a, size, op)) dram_uncounted(a, size, op);
}

// Where a kernel's access to `a` reads or writes: a global address's host mapping,
// any other address itself. Outside kernels the map is empty: the address itself
// (host code touching a device pointer then faults in the guarded view).
SIMT_INLINE std::uintptr_t host_address(std::uintptr_t a) {
  const AddressMap& m = t_address_map;
  return a - m.global_lo < m.global_size ? a + m.global_size : a;
}
}  // namespace detail

// Called by the instrumented types for every read/write of a value that may live
// in device memory. Locals (on the thread's own stack) are free.
// (Host code gets here too, with no current thread: the slow path ignores it.)
SIMT_INLINE void touch(const void* p, unsigned size, MemOp op) {
  auto a = reinterpret_cast<std::uintptr_t>(p);
  asm("" : "+r"(a));  // forget what the type says of the alignment: the check below must stay
  if (a - t_stack_lo < t_stack_size) return;
#ifdef SIMT_CODE_ADDRESS
  Site site;
  SIMT_CODE_ADDRESS(site);
  if (detail::record_fast(a, size, op, site)) return;
  detail::on_access(p, size, op, site);
#else
  detail::on_access_here(p, size, op);
#endif
}

SIMT_INLINE void count_fp(FpOp op) {
  ThreadState* t = t_thread;
  if (!t) return;
#ifdef SIMT_CODE_ADDRESS
  const void* site;
  SIMT_CODE_ADDRESS(site);
  t->ops.add(site, static_cast<std::uint32_t>(op));
#else
  detail::on_fp(op);
#endif
}

}  // namespace simt
