// The state of the simulated thread that is running right now, and the hooks the
// instrumented types call. Everything a kernel touches goes through here.
#pragma once
#include "sim/events.hpp"
#include "sim/vector_types.hpp"

#include <cstdint>

#define SIMT_INLINE inline __attribute__((always_inline))

namespace simt {

struct BlockState;
class WarpLog;

struct ThreadState {
  uint3 thread_idx{};
  unsigned linear = 0;  // index within the block
  unsigned lane = 0, warp = 0;
  BlockState* block = nullptr;
  std::uintptr_t stack_lo = 0, stack_size = 0;  // the fiber stack: locals live here
  WarpLog* log = nullptr;  // of this thread's warp
  SiteCounts ops;
  bool abandoned = false;  // left parked forever (see abandon_thread)
};

// Describes the launch a thread belongs to; read by threadIdx/blockIdx etc.
struct LaunchGeometry {
  dim3 grid, block;
};

// initial-exec: these are read on every access; the general TLS model would cost
// a __tls_get_addr call each time inside the shared library.
#define SIMT_FAST_TLS __attribute__((tls_model("initial-exec")))
extern thread_local ThreadState* t_thread SIMT_FAST_TLS;  // null outside kernels
extern thread_local const LaunchGeometry* t_geometry SIMT_FAST_TLS;
extern thread_local uint3 t_block_idx SIMT_FAST_TLS;

SIMT_INLINE ThreadState* current_thread() { return t_thread; }

namespace detail {
// Out of line so that __builtin_return_address(0) names the kernel's call site.
__attribute__((noinline)) void on_access(const void* p, unsigned size, MemOp op);
__attribute__((noinline)) void on_fp(FpOp op);
}  // namespace detail

// Called by the instrumented types for every read/write of a value that may live
// in device memory. Locals (on the thread's own stack) are free.
SIMT_INLINE void touch(const void* p, unsigned size, MemOp op) {
  ThreadState* t = t_thread;
  if (!t) return;  // host code
  if (reinterpret_cast<std::uintptr_t>(p) - t->stack_lo < t->stack_size) return;
  detail::on_access(p, size, op);
}

SIMT_INLINE void count_fp(FpOp op) {
  if (t_thread) detail::on_fp(op);
}

}  // namespace simt
