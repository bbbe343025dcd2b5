// wmma::mma_sync: one warp-wide call (Collective::WarpCall, sim/state/block.hpp). The
// lane that completes the warp gathers A, B and C from every lane's fragments through
// the layout tables, computes D as the H200's tensor cores do (sim/math/tensor_core.hpp)
// and writes every lane's D fragment; the others wait at the call meanwhile, as their
// stacks (which hold the fragments) must. A lane absent from the warp contributes
// nothing: an element only it held reads as 0.
#pragma once
#include "simt_cuda/wmma_fragment.h"

#include <bit>
#include <cmath>

namespace simt::cuda::wmma_detail {

// A whole matrix gathered from the lanes' fragments: an element from the first
// (lane, i) that holds it (a replicated element read from its first copy).
template <class Spec, class S> struct Gathered {
  double v[Spec::rows * Spec::cols] = {};
  void from(const S* const* lanes) {
    bool seen[Spec::rows * Spec::cols] = {};
    for (int l = 0; l < 32; ++l) {
      if (!lanes[l]) continue;
      for (int i = 0; i < Spec::table.elements; ++i) {
        const int code = Spec::table.codes[l * Spec::table.elements + i];
        if (!seen[code]) seen[code] = true, v[code] = value(lanes[l][i], Spec::math);
      }
    }
  }
};

// One output element: c + a-row . b-column, by the input kind's arithmetic.
template <Math I, class S> inline S dot(double c, const double* a, const double* b, int k) {
  namespace T = ::simt::math::tensor;
  if constexpr (I == Math::S8 || I == Math::U8) {
    std::int64_t s = std::int64_t(c);
    for (int i = 0; i < k; ++i) s += std::int64_t(a[i]) * std::int64_t(b[i]);
    return S(std::uint32_t(s));  // IMMA wraps modulo 2^32
  } else {
    const T::Accumulation& m = I == Math::Tf32 ? T::kH200Tf32 : T::kH200Half;
    const int emin = I == Math::Half ? -14 : -126;
    const double exact = T::dot_exact(c, a, b, k, emin, m);
    if constexpr (__is_same(S, __half)) {  // rounded once, to nearest, from the exact sum
      return std::isnan(exact) ? __half(__half_raw{narrow::kHalf.nan})
                               : __half(__half_raw{narrow::from_double(exact, narrow::kHalf)});
    } else {
      return T::round_step(exact, m);
    }
  }
}

template <int M, int N, int K, class TA, class SA, class SC, class SD> struct MmaCall {
  WarpCallArgs base;
  const SA* a;
  const SA* b;
  const SC* c;
  SD* d;
  bool satf;

  static void run(void* const* lanes) {
    using A = Spec<::nvcuda::wmma::matrix_a, M, N, K, TA>;
    using B = Spec<::nvcuda::wmma::matrix_b, M, N, K, TA>;
    using C = Spec<::nvcuda::wmma::accumulator, M, N, K, SC>;
    using D = Spec<::nvcuda::wmma::accumulator, M, N, K, SD>;
    const SA* as[32] = {};
    const SA* bs[32] = {};
    const SC* cs[32] = {};
    for (int l = 0; l < 32; ++l)
      if (const auto* call = static_cast<const MmaCall*>(lanes[l])) as[l] = call->a, bs[l] = call->b, cs[l] = call->c;
    static thread_local Gathered<A, SA> ga;
    static thread_local Gathered<B, SA> gb;
    static thread_local Gathered<C, SC> gc;
    ga = {}, gb = {}, gc = {};
    ga.from(as), gb.from(bs), gc.from(cs);  // all of C before any D: d may be c
    const bool satf = static_cast<const MmaCall*>(lanes[std::countr_zero(occupied(lanes))])->satf;
    SD out[M * N];
    double row[K], col[K];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        for (int k = 0; k < K; ++k) row[k] = ga.v[i * K + k], col[k] = gb.v[k * N + j];
        out[i * N + j] = saturate(dot<A::math, SD>(gc.v[i * N + j], row, col, K), satf);
      }
    for (int l = 0; l < 32; ++l)
      if (const auto* call = static_cast<const MmaCall*>(lanes[l]))
        for (int i = 0; i < D::table.elements; ++i) call->d[i] = out[D::table.codes[l * D::table.elements + i]];
  }
  static std::uint32_t occupied(void* const* lanes) {
    std::uint32_t m = 0;
    for (int l = 0; l < 32; ++l) m |= lanes[l] ? 1u << l : 0u;
    return m;
  }
  // satf (deprecated in CUDA, kept by it): infinities to the largest finite, NaN to 0.
  static SD saturate(SD v, bool satf) {
    if constexpr (__is_same(SD, float)) {
      if (!satf) return v;
      if (std::isnan(v)) return 0.0f;
      if (std::isinf(v)) return v > 0 ? 3.4028234663852886e38f : -3.4028234663852886e38f;
    }
    return v;
  }
};

template <Math I> constexpr std::uint32_t counted_kind() {
  if constexpr (I == Math::Tf32) return ::simt::tensor_kind(::simt::TensorMath::Tf32, 4);  // 4 HMMA.1684.F32.TF32
  else if constexpr (I == Math::S8 || I == Math::U8) return ::simt::tensor_kind(::simt::TensorMath::Int8, 2);  // 2 IMMA.16816
  else return ::simt::tensor_kind(::simt::TensorMath::Half, 2);  // 2 HMMA.16816
}

}  // namespace simt::cuda::wmma_detail

namespace nvcuda::wmma {

template <int M, int N, int K, class TA, class LA, class LB, class TC, class TD>
[[gnu::always_inline]] inline void mma_sync(fragment<accumulator, M, N, K, TD>& d, const fragment<matrix_a, M, N, K, TA, LA>& a,
                     const fragment<matrix_b, M, N, K, TA, LB>& b, const fragment<accumulator, M, N, K, TC>& c,
                     bool satf = false) {
  namespace D = ::simt::cuda::wmma_detail;
  using SA = typename fragment<matrix_a, M, N, K, TA, LA>::element_type;
  using Call = D::MmaCall<M, N, K, TA, SA, TC, TD>;
  static_assert(__is_same(TC, TD) || (__is_same(TA, __half)), "wmma: C and D differ in type only for __half inputs");
  Call call{{&Call::run}, a.x, b.x, c.x, d.x, satf};
  __simt_site_collective(::simt::cuda::WarpCall, 0xffffffffu, reinterpret_cast<std::uintptr_t>(&call),
                         int(D::counted_kind<D::Spec<matrix_a, M, N, K, TA>::math>()), 32);
}

}  // namespace nvcuda::wmma
