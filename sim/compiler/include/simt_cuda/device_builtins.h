// CUDA's built-in variables and device functions for the compiler front end:
// threadIdx & co., barriers, warp shuffles and votes, atomics, cache-hinted loads
// and stores. Their own code is not instrumented (it is simtlab's); each says
// through a marker call (simt_cuda/markers.h) what the GPU instruction would do.
#pragma once
#include "simt_cuda/markers.h"
#include "simt_cuda/vector_types.h"
#include "sim/state/context.hpp"

#include <atomic>
#include <cstring>
#include <type_traits>

extern "C" {  // sim/exec/runtime_hooks.cpp
void __simt_threadfence();
void __simt_threadfence_block();
void __simt_atomic_begin(const void* word);
void __simt_atomic_end(const void* word, int changed);
}

namespace simt::cuda {
// By value: the loads that read them are the simulator's, not the kernel's.
inline uint3 thread_idx() { return t_thread->thread_idx; }
inline uint3 block_idx() { return t_block_idx; }
inline dim3 block_dim() { return t_geometry->block; }
inline dim3 grid_dim() { return t_geometry->grid; }

// The order of simt::Collective (sim/block.hpp).
enum Collective : int { Sync, Shfl, ShflUp, ShflDown, ShflXor, Ballot, Any, All, ActiveMask, Reduce, MatchAny, MatchAll, WarpCall };
// The order of simt::ReduceOp (sim/state/block.hpp): __reduce_*_sync's operation.
enum ReduceOp : int { RedAdd, RedMinU, RedMaxU, RedMinS, RedMaxS, RedAnd, RedOr, RedXor };

template <class T> inline T collective(Collective kind, unsigned mask, const T& v, int arg, int width) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "shuffles move values of up to 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  bits = __simt_site_collective(kind, mask, bits, arg, width);
  T r;
  std::memcpy(&r, &bits, sizeof(T));
  return r;
}

// The compiler's builtins, not std::atomic_ref: its code lives in libstdc++'s
// headers, which the pass would instrument (a second access per atomic).
// The begin and end calls tell the global race check how blocks publish to each other
// through a fence and an atomic (sim/check/release_acquire.hpp); the end also tells
// the spin watchdog whether the atomic changed the word (a lock nobody releases
// repeats a failing atomicCAS, sim/exec/spin_watch.hpp).
// With MayReduce the GPU has a RED form of the operation, which it runs when the
// result is unused (sim/compiler/pass/red_or_atom.hpp); atomicExch and atomicCAS have none.
template <bool MayReduce = true, class T, class F> inline T atomic_rmw(T* address, F&& update) {
  const unsigned token = __simt_atomic_access(address, sizeof(T), MayReduce);
  __simt_atomic_begin(address);
  T old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  T desired = update(old);
  while (!__atomic_compare_exchange(address, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
    desired = update(old);
  __simt_atomic_end(address, __builtin_memcmp(&old, &desired, sizeof(T)) != 0);
  static_assert(sizeof(T) <= 8, "atomics are on words of up to 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &old, sizeof(T));
  bits = __simt_atomic_value(bits, token);
  std::memcpy(&old, &bits, sizeof(T));
  return old;
}
}  // namespace simt::cuda

// threadIdx, blockIdx, blockDim and gridDim are variables, as in CUDA, not macros:
// a host function may name a local `dim3 gridDim(...)` (llm.c does). Each is an
// empty object whose x, y, z are properties (clang's -fdeclspec, as clang's own CUDA
// headers do it): reading `gridDim.x` calls a getter that reads the running
// thread's state, so the value is an unsigned, never stale across a fiber switch,
// and, as with nvcc, a built-in cannot be assigned or have its address taken.
#define SIMT_BUILTIN_VARIABLE(Name, Value)                                     \
  struct Name {                                                              \
    __declspec(property(get = get_x)) unsigned x;                            \
    __declspec(property(get = get_y)) unsigned y;                            \
    __declspec(property(get = get_z)) unsigned z;                            \
    static unsigned get_x() { return Value().x; }                            \
    static unsigned get_y() { return Value().y; }                            \
    static unsigned get_z() { return Value().z; }                            \
    operator dim3() const {                                                  \
      const auto v = Value();                                                \
      return dim3(v.x, v.y, v.z);                                            \
    }                                                                        \
    operator uint3() const {                                                 \
      const auto v = Value();                                                \
      return uint3{v.x, v.y, v.z};                                           \
    }                                                                        \
    constexpr Name() = default;                                              \
    Name(const Name&) = delete;                                              \
    void operator=(const Name&) const = delete;                              \
    Name* operator&() const = delete;                                        \
  }
namespace simt::cuda {
SIMT_BUILTIN_VARIABLE(BuiltinThreadIdx, thread_idx);
SIMT_BUILTIN_VARIABLE(BuiltinBlockIdx, block_idx);
SIMT_BUILTIN_VARIABLE(BuiltinBlockDim, block_dim);
SIMT_BUILTIN_VARIABLE(BuiltinGridDim, grid_dim);
}  // namespace simt::cuda
#undef SIMT_BUILTIN_VARIABLE
inline constexpr simt::cuda::BuiltinThreadIdx threadIdx{};
inline constexpr simt::cuda::BuiltinBlockIdx blockIdx{};
inline constexpr simt::cuda::BuiltinBlockDim blockDim{};
inline constexpr simt::cuda::BuiltinGridDim gridDim{};
inline constexpr int warpSize = 32;

inline void __syncthreads() { __simt_site_barrier(0); }
int __simt_barrier_result();  // sim/exec/runtime_hooks.cpp
inline int __syncthreads_count(int p) { __simt_site_barrier(p != 0); return __simt_barrier_result(); }
inline int __syncthreads_and(int p) {
  __simt_site_barrier(p != 0);
  return __simt_barrier_result() == int(blockDim.x * blockDim.y * blockDim.z);
}
inline int __syncthreads_or(int p) { __simt_site_barrier(p != 0); return __simt_barrier_result() > 0; }
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  __simt_site_collective(simt::cuda::Sync, mask, 0, 0, 32);
}

template <class T> inline T __shfl_sync(unsigned m, T v, int lane, int w = warpSize) {
  return simt::cuda::collective(simt::cuda::Shfl, m, v, lane, w);
}
template <class T> inline T __shfl_up_sync(unsigned m, T v, unsigned d, int w = warpSize) {
  return simt::cuda::collective(simt::cuda::ShflUp, m, v, int(d), w);
}
template <class T> inline T __shfl_down_sync(unsigned m, T v, unsigned d, int w = warpSize) {
  return simt::cuda::collective(simt::cuda::ShflDown, m, v, int(d), w);
}
template <class T> inline T __shfl_xor_sync(unsigned m, T v, int lm, int w = warpSize) {
  return simt::cuda::collective(simt::cuda::ShflXor, m, v, lm, w);
}
inline unsigned __ballot_sync(unsigned m, int p) { return unsigned(__simt_site_collective(simt::cuda::Ballot, m, p != 0, 0, 32)); }
inline int __any_sync(unsigned m, int p) { return int(__simt_site_collective(simt::cuda::Any, m, p != 0, 0, 32)); }
inline int __all_sync(unsigned m, int p) { return int(__simt_site_collective(simt::cuda::All, m, p != 0, 0, 32)); }
inline unsigned __activemask() { return unsigned(__simt_site_collective(simt::cuda::ActiveMask, 0, 0, 0, 32)); }

// sm_80's warp reductions (REDUX) and sm_70's matches: one warp collective each, like
// the shuffles and votes above (the lanes of the mask meet; the result is computed
// once all have arrived, sim/exec/sync.cpp).
namespace simt::cuda {
inline unsigned reduce32(ReduceOp op, unsigned m, unsigned v) {
  return unsigned(__simt_site_collective(Reduce, m, v, op, 32));
}
template <class T> inline std::uint64_t match_bits(const T& v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_*_sync compares 32- or 64-bit values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T> inline unsigned match_any(unsigned m, T v) {
  return unsigned(__simt_site_collective(MatchAny, m, match_bits(v), int(sizeof(T)), 32));
}
template <class T> inline unsigned match_all(unsigned m, T v, int* pred) {
  const unsigned r = unsigned(__simt_site_collective(MatchAll, m, match_bits(v), int(sizeof(T)), 32));
  *pred = r != 0;
  return r;
}
}  // namespace simt::cuda
inline unsigned __reduce_add_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedAdd, m, v); }
inline int __reduce_add_sync(unsigned m, int v) { return int(simt::cuda::reduce32(simt::cuda::RedAdd, m, unsigned(v))); }
inline unsigned __reduce_min_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedMinU, m, v); }
inline int __reduce_min_sync(unsigned m, int v) { return int(simt::cuda::reduce32(simt::cuda::RedMinS, m, unsigned(v))); }
inline unsigned __reduce_max_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedMaxU, m, v); }
inline int __reduce_max_sync(unsigned m, int v) { return int(simt::cuda::reduce32(simt::cuda::RedMaxS, m, unsigned(v))); }
inline unsigned __reduce_and_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedAnd, m, v); }
inline unsigned __reduce_or_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedOr, m, v); }
inline unsigned __reduce_xor_sync(unsigned m, unsigned v) { return simt::cuda::reduce32(simt::cuda::RedXor, m, v); }
#define SIMT_MATCH(T)                                                                               \
  inline unsigned __match_any_sync(unsigned m, T v) { return simt::cuda::match_any(m, v); }        \
  inline unsigned __match_all_sync(unsigned m, T v, int* pred) { return simt::cuda::match_all(m, v, pred); }
SIMT_MATCH(unsigned)
SIMT_MATCH(int)
SIMT_MATCH(unsigned long)
SIMT_MATCH(long)
SIMT_MATCH(unsigned long long)
SIMT_MATCH(long long)
SIMT_MATCH(float)
SIMT_MATCH(double)
#undef SIMT_MATCH

inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(unsigned(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
inline unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
// Integer multiplies: __mul24/__umul24 multiply the low 24 bits (signed: bit 23 is the
// sign, as PTX's mul24.lo.s32) and keep the product's low 32 bits; __mulhi/__umulhi
// and __mul64hi/__umul64hi keep the high half of the full product.
inline int __mul24(int x, int y) {
  const std::int64_t a = std::int32_t(std::uint32_t(x) << 8) >> 8, b = std::int32_t(std::uint32_t(y) << 8) >> 8;
  return int(std::uint32_t(std::uint64_t(a * b)));
}
inline unsigned __umul24(unsigned x, unsigned y) {
  return unsigned(std::uint64_t(x & 0xffffffu) * (y & 0xffffffu));
}
inline int __mulhi(int x, int y) { return int((std::int64_t(x) * y) >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) { return unsigned((std::uint64_t(x) * y) >> 32); }
inline long long __mul64hi(long long x, long long y) { return (long long)((__int128(x) * y) >> 64); }
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return (unsigned long long)((unsigned __int128)(x) * y >> 64);
}
// sm_61's integer dot products (IDP.4A, IDP.2A: one instruction each on sm_90, counted
// by the marker as one; no FP counter). __dp4a: the four byte products of a and b
// (signed bytes for int, unsigned for unsigned) added to c; __dp2a_lo/_hi: the two
// 16-bit halves of a times bytes 0, 1 (lo) or 2, 3 (hi) of b, added to c. Sums wrap
// at 32 bits, as the GPU's. The char4/uchar4 and short2/ushort2 forms are the same
// operation on the packed vectors.
namespace simt::cuda {
template <class Lane> inline std::uint32_t dot_bytes(std::uint32_t a, std::uint32_t b, std::uint32_t c, int n,
                                                     int a_bits, int b_first) {
  std::uint32_t sum = c;
  for (int i = 0; i < n; ++i) {
    const std::uint32_t ai = a >> (a_bits * i), bi = b >> (8 * (b_first + i));
    const std::int64_t x = std::is_signed_v<Lane> ? (a_bits == 8 ? std::int64_t(std::int8_t(ai)) : std::int64_t(std::int16_t(ai)))
                                                  : std::int64_t(a_bits == 8 ? std::uint8_t(ai) : std::uint16_t(ai));
    const std::int64_t y = std::is_signed_v<Lane> ? std::int64_t(std::int8_t(bi)) : std::int64_t(std::uint8_t(bi));
    sum += std::uint32_t(x * y);
  }
  __simt_site_sass();
  return sum;
}
template <class V> inline std::uint32_t packed(const V& v) {
  std::uint32_t r;
  static_assert(sizeof(V) == 4);
  std::memcpy(&r, &v, 4);
  return r;
}
}  // namespace simt::cuda
inline int __dp4a(int a, int b, int c) { return int(simt::cuda::dot_bytes<int>(a, b, c, 4, 8, 0)); }
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) { return simt::cuda::dot_bytes<unsigned>(a, b, c, 4, 8, 0); }
inline int __dp4a(char4 a, char4 b, int c) { return __dp4a(int(simt::cuda::packed(a)), int(simt::cuda::packed(b)), c); }
inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) { return __dp4a(simt::cuda::packed(a), simt::cuda::packed(b), c); }
#define SIMT_DP2A(name, first)                                                                                      \
  inline int name(int a, int b, int c) { return int(simt::cuda::dot_bytes<int>(a, b, c, 2, 16, first)); }         \
  inline unsigned name(unsigned a, unsigned b, unsigned c) {                                                       \
    return simt::cuda::dot_bytes<unsigned>(a, b, c, 2, 16, first);                                                 \
  }                                                                                                                \
  inline int name(short2 a, char4 b, int c) { return name(int(simt::cuda::packed(a)), int(simt::cuda::packed(b)), c); } \
  inline unsigned name(ushort2 a, uchar4 b, unsigned c) { return name(simt::cuda::packed(a), simt::cuda::packed(b), c); }
SIMT_DP2A(__dp2a_lo, 0)
SIMT_DP2A(__dp2a_hi, 2)
#undef SIMT_DP2A

// The launch fails with cudaErrorLaunchFailure; the diagnostic names the caller's line.
extern "C" [[noreturn]] void __simt_trap(const char* file, unsigned line);  // runtime_hooks.cpp
[[noreturn]] inline void __trap(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  __simt_trap(file, line);
}
// __nanosleep(ns) (sm_70 and later): CUDA suspends the thread for about ns nanoseconds,
// a hint to the scheduler, mostly used for back-off in a spin wait. Simulated threads
// run until they block, so it returns at once: what the program computes is the same,
// and a spin wait still ends when the flag it polls changes (docs/frontend.md).
inline void __nanosleep(unsigned) {}
inline void __threadfence() { __simt_threadfence(); }
inline void __threadfence_system() { __simt_threadfence(); }
inline void __threadfence_block() { __simt_threadfence_block(); }

#define SIMT_ATOMIC(name, expr, red)                                                     \
  template <class T> inline T name(T* a, std::type_identity_t<T> v) {                    \
    return simt::cuda::atomic_rmw<red>(a, [v](T old) { return T(expr); });               \
  }
SIMT_ATOMIC(atomicAdd, old + v, true)
SIMT_ATOMIC(atomicSub, old - v, true)
SIMT_ATOMIC(atomicExch, v, false)
SIMT_ATOMIC(atomicMin, v < old ? v : old, true)
SIMT_ATOMIC(atomicMax, v > old ? v : old, true)
SIMT_ATOMIC(atomicAnd, old & v, true)
SIMT_ATOMIC(atomicOr, old | v, true)
SIMT_ATOMIC(atomicXor, old ^ v, true)
#undef SIMT_ATOMIC
inline unsigned atomicInc(unsigned* a, unsigned v) {
  return simt::cuda::atomic_rmw(a, [v](unsigned old) { return old >= v ? 0u : old + 1; });
}
inline unsigned atomicDec(unsigned* a, unsigned v) {
  return simt::cuda::atomic_rmw(a, [v](unsigned old) { return (old == 0 || old > v) ? v : old - 1; });
}
template <class T> inline T atomicCAS(T* a, std::type_identity_t<T> compare, std::type_identity_t<T> v) {
  return simt::cuda::atomic_rmw<false>(a, [compare, v](T old) { return old == compare ? v : old; });
}

// Cache-hinted loads and stores: ordinary accesses to the simulator.
#define SIMT_HINTED_LOAD(name)                                                     \
  template <class T> inline T name(const T* p) {                                   \
    __simt_site_access(p, sizeof(T), 0);                                           \
    T v;                                                                           \
    std::memcpy(static_cast<void*>(&v), p, sizeof(T));                             \
    return v;                                                                      \
  }
SIMT_HINTED_LOAD(__ldg)
SIMT_HINTED_LOAD(__ldcg)
SIMT_HINTED_LOAD(__ldca)
SIMT_HINTED_LOAD(__ldcs)
SIMT_HINTED_LOAD(__ldlu)
SIMT_HINTED_LOAD(__ldcv)
#undef SIMT_HINTED_LOAD
#define SIMT_HINTED_STORE(name)                                                    \
  template <class T> inline void name(T* p, T v) {                                 \
    __simt_site_access(p, sizeof(T), 1);                                           \
    std::memcpy(static_cast<void*>(p), &v, sizeof(T));                             \
  }
SIMT_HINTED_STORE(__stcg)
SIMT_HINTED_STORE(__stcs)
SIMT_HINTED_STORE(__stwb)
SIMT_HINTED_STORE(__stwt)
#undef SIMT_HINTED_STORE

namespace simt { void* dynamic_shared_base(); }
// What the syntax step makes of `extern __shared__ T name[];` (sim/compiler/README).
#define SIMT_DYNAMIC_SHARED(T, name) T* const name = reinterpret_cast<T*>(::simt::dynamic_shared_base())
