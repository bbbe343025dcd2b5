// CUDA's built-in variables and device functions for the simulator build:
// threadIdx & co., barriers, warp shuffles and votes, atomics, device printf
// and assert. Spelled as in CUDA; see docs/dialect.md.
#pragma once
#include "sim/exec/block.hpp"
#include "sim/cuda/vector_values.hpp"

#include <atomic>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <type_traits>

#define threadIdx (::simt::t_thread->thread_idx)
#define blockIdx (::simt::t_block_idx)
#define blockDim (::simt::t_geometry->block)
#define gridDim (::simt::t_geometry->grid)
inline constexpr int warpSize = 32;

// Kernels carry an ABI tag so the simulator can tell them apart from device
// functions in the symbol table (whose __shared__ variables belong to which kernel).
#define __global__ __attribute__((abi_tag("simt_kernel")))
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__ __restrict
#define __launch_bounds__(...)
// Static __shared__ variables get one copy per worker thread; the simulator finds
// them in the module's thread-local storage (sim/report/symbols.cpp).
#define __shared__ thread_local
// __constant__ data is read-only and shared by all blocks.
#define __constant__ static const

namespace simt::detail {
__attribute__((noinline)) void barrier(int value);
__attribute__((noinline)) std::uint64_t collective(Collective kind, std::uint32_t mask, std::uint64_t value, int arg,
                                                   int width);
[[noreturn]] void device_assert_fail(const char* expr, const char* file, int line);

template <class T> SIMT_INLINE std::uint64_t to_bits(const T& v) {
  raw_t<T> r = value_of(v);
  std::uint64_t bits = 0;
  std::memcpy(&bits, &r, sizeof r);
  return bits;
}
template <class T> SIMT_INLINE raw_t<T> from_bits(std::uint64_t bits) {
  raw_t<T> r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}
}  // namespace simt::detail

SIMT_INLINE void __syncthreads() { simt::detail::barrier(0); }
SIMT_INLINE int __syncthreads_count(int p) {
  simt::detail::barrier(p != 0);
  return simt::t_thread->block->barrier_result;
}
SIMT_INLINE int __syncthreads_and(int p) {
  simt::detail::barrier(p != 0);
  return simt::t_thread->block->barrier_result == int(simt::t_thread->block->nthreads);
}
SIMT_INLINE int __syncthreads_or(int p) {
  simt::detail::barrier(p != 0);
  return simt::t_thread->block->barrier_result > 0;
}
SIMT_INLINE void __syncwarp(unsigned mask = 0xffffffffu) {
  simt::detail::collective(simt::Collective::Sync, mask, 0, 0, 32);
}

#define SIMT_SHUFFLE(name, kind, argtype)                                                             \
  template <class T>                                                                                  \
  SIMT_INLINE simt::raw_t<T> name(unsigned mask, const T& var, argtype arg, int width = warpSize) {   \
    return simt::detail::from_bits<T>(                                                                \
        simt::detail::collective(simt::Collective::kind, mask, simt::detail::to_bits(var), int(arg), width)); \
  }
SIMT_SHUFFLE(__shfl_sync, Shfl, int)
SIMT_SHUFFLE(__shfl_up_sync, ShflUp, unsigned)
SIMT_SHUFFLE(__shfl_down_sync, ShflDown, unsigned)
SIMT_SHUFFLE(__shfl_xor_sync, ShflXor, int)
#undef SIMT_SHUFFLE

SIMT_INLINE unsigned __ballot_sync(unsigned mask, int pred) {
  return unsigned(simt::detail::collective(simt::Collective::Ballot, mask, pred != 0, 0, 32));
}
SIMT_INLINE int __any_sync(unsigned mask, int pred) {
  return int(simt::detail::collective(simt::Collective::Any, mask, pred != 0, 0, 32));
}
SIMT_INLINE int __all_sync(unsigned mask, int pred) {
  return int(simt::detail::collective(simt::Collective::All, mask, pred != 0, 0, 32));
}
SIMT_INLINE unsigned __activemask() {
  return unsigned(simt::detail::collective(simt::Collective::ActiveMask, 0, 0, 0, 32));
}
SIMT_INLINE int __popc(unsigned x) { return __builtin_popcount(x); }
SIMT_INLINE int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
SIMT_INLINE int __ffs(int x) { return __builtin_ffs(x); }
SIMT_INLINE int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
SIMT_INLINE void __threadfence() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (simt::ThreadState* t = simt::current_thread()) simt::note_fence(t);  // sim/check/release_acquire.hpp
}
SIMT_INLINE void __threadfence_block() {}

// ---- atomics: one access of the element's size, then the read-modify-write.
namespace simt::detail {
template <class S, class F>
SIMT_INLINE raw_t<S> atomic_rmw(S* address, F&& update) {
  touch(address, sizeof(S), MemOp::Atomic);
  ThreadState* t = current_thread();
  if (t) before_atomic(t, reinterpret_cast<std::uintptr_t>(address));
  using R = raw_t<S>;
  std::atomic_ref<R> ref(*reinterpret_cast<R*>(address));
  R old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_seq_cst, std::memory_order_relaxed)) {}
  if (t) after_atomic(t, reinterpret_cast<std::uintptr_t>(address));
  return old;
}
}  // namespace simt::detail

template <class S> SIMT_INLINE simt::raw_t<S> atomicAdd(S* a, std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [v](auto old) { return decltype(old)(old + v); });
}
template <class S> SIMT_INLINE simt::raw_t<S> atomicSub(S* a, std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [v](auto old) { return decltype(old)(old - v); });
}
template <class S> SIMT_INLINE simt::raw_t<S> atomicExch(S* a, std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [v](auto) { return v; });
}
template <class S> SIMT_INLINE simt::raw_t<S> atomicMin(S* a, std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [v](auto old) { return v < old ? v : old; });
}
template <class S> SIMT_INLINE simt::raw_t<S> atomicMax(S* a, std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [v](auto old) { return v > old ? v : old; });
}
template <class S>
SIMT_INLINE simt::raw_t<S> atomicCAS(S* a, std::type_identity_t<simt::raw_t<S>> compare,
                                     std::type_identity_t<simt::raw_t<S>> v) {
  return simt::detail::atomic_rmw(a, [compare, v](auto old) { return old == compare ? v : old; });
}

// ---- device printf: instrumented values are passed as the plain values they hold.
namespace simt::detail {
template <class X> SIMT_INLINE auto printf_arg(const X& x) {
  if constexpr (is_scalar_v<X>) return x.get();
  else return static_cast<std::decay_t<X>>(x);
}
}  // namespace simt::detail
template <class... A>
SIMT_INLINE int printf(const char* format, const A&... args) {
  return std::printf(format, simt::detail::printf_arg(args)...);
}

// Device assert, disabled by NDEBUG as in CUDA. (A later #include <cassert>
// would bring back the C library's assert: include it before this header.)
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ::simt::detail::device_assert_fail(#e, __FILE__, __LINE__))
#endif
