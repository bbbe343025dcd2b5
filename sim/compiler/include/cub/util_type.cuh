// simtlab's CUB, common pieces: NullType (the empty TempStorage of algorithms that
// need no shared memory), Uninitialized<T> (raw storage a __shared__ TempStorage is
// declared as, as in CUB: no constructor runs), and the thread's place in its block.
// This code is compiled into the user's kernel and instrumented like it
// (docs/frontend.md, "simtlab's CUDA libraries"): its shared accesses, shuffles,
// barriers and FP operations are counted at the user's line that called CUB.
#pragma once
#include <cuda_runtime.h>
#include <cuda/functional>
#include <cuda/std/functional>

#include <cstdint>
#include <type_traits>

namespace cub {

struct NullType {};

// Storage for a T without constructing it; Alias() is the T. CUB declares it as an
// array of words of T's alignment: the same size, alignment and layout here.
template <class T> struct Uninitialized {
  alignas(alignof(T)) unsigned char storage[sizeof(T)];
  __device__ __forceinline__ T& Alias() { return *reinterpret_cast<T*>(this); }
};

namespace detail {
inline constexpr int warp_threads = 32;
inline constexpr int log2_warp_threads = 5;
inline constexpr int smem_banks = 32;
inline constexpr int log2_smem_banks = 5;
template <int N> inline constexpr int log2_v = N <= 1 ? 0 : 1 + log2_v<N / 2>;
template <int N> inline constexpr bool is_pow2_v = N > 0 && (N & (N - 1)) == 0;

// CUB's RowMajorTid: x fastest, then y, then z.
__device__ __forceinline__ int row_major_tid(int dim_x, int dim_y, int dim_z) {
  return ((dim_z == 1) ? 0 : int(threadIdx.z) * dim_x * dim_y) + ((dim_y == 1) ? 0 : int(threadIdx.y) * dim_x) +
         int(threadIdx.x);
}
// %laneid: the lane within the hardware warp (threads are numbered row-major).
__device__ __forceinline__ int lane_id() {
  const dim3 b = blockDim;
  return int((threadIdx.z * b.y * b.x + threadIdx.y * b.x + threadIdx.x) % 32u);
}

// CUB's ShuffleDown/ShuffleUp/ShuffleIndex: a value of up to 8 bytes in one shuffle; a
// larger one (a struct, a tuple) word by word, one 32-bit SHFL per word, as CUB moves it.
// A store of a value wider than 8 bytes, or of 8 bytes aligned to 4, as nvcc stores
// it: one 32-bit store per word (clang would copy it with 8-byte moves that the
// address need not be aligned for). CUB's partials and warp totals are written so.
template <class T> __device__ __forceinline__ void store_words(T* dst, const T& v) {
  if constexpr ((sizeof(T) > 8 || (sizeof(T) == 8 && alignof(T) < 8)) && sizeof(T) % 4 == 0 && alignof(T) >= 4) {
    unsigned words[sizeof(T) / 4];
    __builtin_memcpy(words, &v, sizeof(T));
    volatile unsigned* d = reinterpret_cast<volatile unsigned*>(dst);  // volatile: not merged into 8-byte stores
    for (unsigned w = 0; w < sizeof(T) / 4; ++w) d[w] = words[w];
  } else {
    *dst = v;
  }
}

template <class T> __device__ __forceinline__ T load_words(const T* src) {
  if constexpr ((sizeof(T) > 8 || (sizeof(T) == 8 && alignof(T) < 8)) && sizeof(T) % 4 == 0 && alignof(T) >= 4 &&
                std::is_trivially_copyable_v<T>) {
    unsigned words[sizeof(T) / 4];
    const volatile unsigned* s = reinterpret_cast<const volatile unsigned*>(src);
    for (unsigned w = 0; w < sizeof(T) / 4; ++w) words[w] = s[w];
    T v;
    __builtin_memcpy(&v, words, sizeof(T));
    return v;
  } else {
    return *src;
  }
}

enum class shfl_kind { down, up, idx };
template <shfl_kind K, class T> __device__ __forceinline__ T shuffle(unsigned mask, const T& v, int arg, int width) {
  auto one = [&](auto x) {
    if constexpr (K == shfl_kind::down) return __shfl_down_sync(mask, x, unsigned(arg), width);
    else if constexpr (K == shfl_kind::up) return __shfl_up_sync(mask, x, unsigned(arg), width);
    else return __shfl_sync(mask, x, arg, width);
  };
  if constexpr (sizeof(T) <= 8 && std::is_trivially_copyable_v<T>) {
    return one(v);
  } else {
    constexpr int WORDS = int((sizeof(T) + 3) / 4);
    unsigned words[WORDS] = {};
    __builtin_memcpy(words, &v, sizeof(T));
    for (int w = 0; w < WORDS; ++w) words[w] = one(words[w]);
    T r = v;
    __builtin_memcpy(&r, words, sizeof(T));
    return r;
  }
}
}  // namespace detail

using detail::row_major_tid;

// Pre-CUDA-13 spellings that older course code uses (CUB 2.x deprecated them for
// the libcu++ operators, CUDA 13 removed them).
using Sum = ::cuda::std::plus<>;
using Max = ::cuda::maximum<>;
using Min = ::cuda::minimum<>;

}  // namespace cub
