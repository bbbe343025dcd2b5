// cub::ThreadReduce over a thread's own items, in CUDA 13's order: a binary tree
// ((a0+a1)+(a2+a3))... for the libcu++ operators on types of under 8 bytes, left to
// right for any other operator or for 8-byte types. (CUB's ternary trees and SIMD
// forms apply to integer and half types, where the order does not change results.)
#pragma once
#include "cub/util_type.cuh"

namespace cub {
namespace detail {
template <class Op, class T> inline constexpr bool tree_reduced_v =
    sizeof(T) < 8 && (std::is_same_v<Op, ::cuda::std::plus<>> || std::is_same_v<Op, ::cuda::std::plus<T>> ||
                      std::is_same_v<Op, ::cuda::std::multiplies<>> || std::is_same_v<Op, ::cuda::std::multiplies<T>> ||
                      std::is_same_v<Op, ::cuda::maximum<>> || std::is_same_v<Op, ::cuda::maximum<T>> ||
                      std::is_same_v<Op, ::cuda::minimum<>> || std::is_same_v<Op, ::cuda::minimum<T>> ||
                      std::is_same_v<Op, ::cuda::std::bit_and<>> || std::is_same_v<Op, ::cuda::std::bit_or<>> ||
                      std::is_same_v<Op, ::cuda::std::bit_xor<>>);
}  // namespace detail

template <int N, class T, class Op> __device__ __forceinline__ T ThreadReduce(const T (&in)[N], Op op) {
  if constexpr (detail::tree_reduced_v<Op, T>) {
    T a[N];
    for (int i = 0; i < N; ++i) a[i] = in[i];
    for (int stride = 1; stride < N; stride *= 2)
      for (int j = 0; j + stride < N; j += 2 * stride) a[j] = op(a[j], a[j + stride]);
    return a[0];
  } else {
    T r = in[0];
    for (int i = 1; i < N; ++i) r = op(r, in[i]);
    return r;
  }
}

namespace internal {
// Exclusive scan of a thread's items seeded with prefix (left to right, as CUB).
// CUB also combines the last item into a total that its callers drop; nvcc removes
// that dead FADD (H200 SASS), so it is not computed here.
template <int N, class T, class Op>
__device__ __forceinline__ void ThreadScanExclusive(const T (&in)[N], T (&out)[N], Op op, T prefix, bool apply_prefix = true) {
  T running = in[0];
  if (apply_prefix && N > 1) running = op(prefix, running);
  out[0] = prefix;
  for (int i = 1; i < N; ++i) {  // in and out may be one array: read in[i] first
    const T item = in[i];
    out[i] = running;
    if (i + 1 < N) running = op(running, item);
  }
}
template <int N, class T, class Op>
__device__ __forceinline__ void ThreadScanInclusive(const T (&in)[N], T (&out)[N], Op op, T prefix, bool apply_prefix = true) {
  T inclusive = in[0];
  if (apply_prefix) inclusive = op(prefix, inclusive);
  out[0] = inclusive;
  for (int i = 1; i < N; ++i) {
    inclusive = op(inclusive, in[i]);
    out[i] = inclusive;
  }
}
}  // namespace internal
}  // namespace cub
