// simtlab's <mma.h>: CUDA's warp matrix functions (nvcuda::wmma) on the simulator.
// Fragments hold what each lane holds on the H200 (layouts measured there,
// simt_cuda/wmma_layouts.h); load_matrix_sync and store_matrix_sync make the lane
// accesses sm_90's SASS makes (simt_cuda/wmma_access.h), so that requests, sectors
// and shared wavefronts count as Nsight Compute counts them; mma_sync is a warp-wide
// operation (all 32 lanes, or the simulator names the missing ones) counted as the
// tensor-pipe instructions it is (2 HMMA/IMMA, 4 for tf32: sim/count/tensor_ops.hpp)
// and computed as the H200's tensor cores compute it, bit for bit
// (sim/math/tensor_core.hpp; docs/validation/h200-tensor-cores.md).
#pragma once
#include "cuda_runtime.h"
#include "sim/count/tensor_ops.hpp"
#include "sim/math/tensor_core.hpp"
#include "sim/state/block.hpp"
#include "simt_cuda/device_builtins.h"
#include "simt_cuda/wmma_access.h"
#include "simt_cuda/wmma_fragment.h"

namespace nvcuda::wmma {

template <class Use, int M, int N, int K, class T, class Layout = void>
class fragment {
  using Spec = ::simt::cuda::wmma_detail::Spec<Use, M, N, K, T>;

 public:
  using element_type = typename Spec::Storage;
  using storage_element_type = element_type;
  static constexpr int num_elements = Spec::table.elements;
  element_type x[num_elements];
};

// __float_to_tf32 (cvt.rna.tf32.f32): to 10 fraction bits, nearest with ties away
// from zero; infinities and NaNs unchanged.
inline float __float_to_tf32(float in) {
  std::uint32_t b;
  std::memcpy(&b, &in, 4);
  if ((b & 0x7f800000u) != 0x7f800000u) b = (b + 0x1000u) & ~0x1fffu;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

template <class Use, int M, int N, int K, class T, class Layout, class V>
inline void fill_fragment(fragment<Use, M, N, K, T, Layout>& f, const V& v) {
  using E = typename fragment<Use, M, N, K, T, Layout>::element_type;
  const E e = E(v);
  for (int i = 0; i < f.num_elements; ++i) f.x[i] = e;
}

}  // namespace nvcuda::wmma

namespace simt::cuda::wmma_detail {

inline int lane_id() { return int(t_thread->lane); }

// Loads or stores the lane's part of a rows x cols matrix at p (ldm elements apart).
template <class Spec, class S, class P>
[[gnu::always_inline]] inline void move(S* x, P* p, unsigned ldm, bool row_major, unsigned op) {
  const int lane = lane_id();
  const bool ldmatrix = op == 0 && (Spec::is_a || Spec::is_b) && in_shared(p);
  touch(p, sizeof(S), plan(Spec::table.codes, Spec::table.elements, Spec::cols, ldm, row_major, sizeof(S), ldmatrix, lane),
        op);
  for (int i = 0; i < Spec::table.elements; ++i) {
    const long at = position(Spec::table.codes[lane * Spec::table.elements + i], Spec::cols, ldm, row_major);
    if (op == 0) std::memcpy(static_cast<void*>(&x[i]), static_cast<const void*>(p + at), sizeof(S));
    else std::memcpy(static_cast<void*>(const_cast<S*>(p + at)), static_cast<const void*>(&x[i]), sizeof(S));
  }
}

}  // namespace simt::cuda::wmma_detail

namespace nvcuda::wmma {

template <class Use, int M, int N, int K, class T, class Layout, class P>
[[gnu::always_inline]] inline void load_matrix_sync(fragment<Use, M, N, K, T, Layout>& f, const P* p, unsigned ldm) {
  static_assert(!__is_same(Layout, void), "wmma: an accumulator's load_matrix_sync takes a layout_t");
  using Spec = ::simt::cuda::wmma_detail::Spec<Use, M, N, K, T>;
  static_assert(sizeof(P) == sizeof(typename Spec::Storage), "wmma: the pointer's type is not the fragment's");
  ::simt::cuda::wmma_detail::move<Spec>(f.x, reinterpret_cast<const typename Spec::Storage*>(p), ldm,
                                        __is_same(Layout, row_major), 0);
}
template <int M, int N, int K, class T, class P>
[[gnu::always_inline]] inline void load_matrix_sync(fragment<accumulator, M, N, K, T>& f, const P* p, unsigned ldm, layout_t layout) {
  using Spec = ::simt::cuda::wmma_detail::Spec<accumulator, M, N, K, T>;
  static_assert(sizeof(P) == sizeof(T), "wmma: the pointer's type is not the fragment's");
  ::simt::cuda::wmma_detail::move<Spec>(f.x, reinterpret_cast<const T*>(p), ldm, layout == mem_row_major, 0);
}
template <int M, int N, int K, class T, class P>
[[gnu::always_inline]] inline void store_matrix_sync(P* p, const fragment<accumulator, M, N, K, T>& f, unsigned ldm, layout_t layout) {
  using Spec = ::simt::cuda::wmma_detail::Spec<accumulator, M, N, K, T>;
  static_assert(sizeof(P) == sizeof(T), "wmma: the pointer's type is not the fragment's");
  ::simt::cuda::wmma_detail::move<Spec>(const_cast<T*>(f.x), reinterpret_cast<T*>(p), ldm, layout == mem_row_major,
                                        1);
}

}  // namespace nvcuda::wmma

#include "simt_cuda/wmma_mma.h"
