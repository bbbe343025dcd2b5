// What a wmma fragment is, per (use, shape, element type): the matrix it holds a
// part of (rows x cols), its layout table (simt_cuda/wmma_layouts.h, measured on the
// H200), the type x[] stores, and how its elements read as numbers for the MMA.
#pragma once
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "simt_cuda/wmma_layouts.h"

#include <cstdint>
#include <cstring>

namespace nvcuda::wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
enum layout_t { mem_row_major, mem_col_major };
namespace precision {
struct tf32 {};  // fragments of it hold float, rounded by __float_to_tf32
}  // namespace precision
}  // namespace nvcuda::wmma

namespace simt::cuda::wmma_detail {
namespace L = ::simt::cuda::wmma_layouts;
namespace W = ::nvcuda::wmma;

enum class Math { Half, Bf16, Tf32, S8, U8, F32, S32 };  // what an element is to the MMA

template <class T> struct Element;  // the type x[] stores and what it means
template <> struct Element<__half> { using Storage = __half; static constexpr Math math = Math::Half; };
template <> struct Element<__nv_bfloat16> { using Storage = __nv_bfloat16; static constexpr Math math = Math::Bf16; };
template <> struct Element<W::precision::tf32> { using Storage = float; static constexpr Math math = Math::Tf32; };
template <> struct Element<signed char> { using Storage = signed char; static constexpr Math math = Math::S8; };
template <> struct Element<unsigned char> { using Storage = unsigned char; static constexpr Math math = Math::U8; };
template <> struct Element<float> { using Storage = float; static constexpr Math math = Math::F32; };
template <> struct Element<int> { using Storage = int; static constexpr Math math = Math::S32; };

struct Table {
  const unsigned short* codes;
  int elements;
};
#define SIMT_WMMA_TABLE(name) Table{L::name, L::name##_elements}

// The layout table of an A or B fragment, by shape and input kind.
template <class Use, int M, int N, int K, Math I> constexpr Table input_table() {
  constexpr bool a = __is_same(Use, W::matrix_a);
  constexpr bool f16 = I == Math::Half, bf16 = I == Math::Bf16, i8 = I == Math::S8 || I == Math::U8;
  if constexpr (I == Math::Tf32) {
    static_assert(M == 16 && N == 16 && K == 8, "wmma: tf32 fragments are m16n16k8");
    return a ? SIMT_WMMA_TABLE(kTf32_m16n16k8_a) : SIMT_WMMA_TABLE(kTf32_m16n16k8_b);
  } else {
    static_assert(f16 || bf16 || i8, "wmma: A and B fragments hold __half, __nv_bfloat16, signed/unsigned char or precision::tf32");
    static_assert(K == 16 && ((M == 16 && N == 16) || (M == 32 && N == 8) || (M == 8 && N == 32)),
                  "wmma: simtlab runs m16n16k16, m32n8k16, m8n32k16 (and m16n16k8 for tf32)");
    if constexpr (M == 16) {
      if (f16) return a ? SIMT_WMMA_TABLE(kF16_m16n16k16_a) : SIMT_WMMA_TABLE(kF16_m16n16k16_b);
      if (bf16) return a ? SIMT_WMMA_TABLE(kBf16_m16n16k16_a) : SIMT_WMMA_TABLE(kBf16_m16n16k16_b);
      return a ? SIMT_WMMA_TABLE(kI8_m16n16k16_a) : SIMT_WMMA_TABLE(kI8_m16n16k16_b);
    } else if constexpr (M == 32) {
      if (f16) return a ? SIMT_WMMA_TABLE(kF16_m32n8k16_a) : SIMT_WMMA_TABLE(kF16_m32n8k16_b);
      if (bf16) return a ? SIMT_WMMA_TABLE(kBf16_m32n8k16_a) : SIMT_WMMA_TABLE(kBf16_m32n8k16_b);
      return a ? SIMT_WMMA_TABLE(kI8_m32n8k16_a) : SIMT_WMMA_TABLE(kI8_m32n8k16_b);
    } else {
      if (f16) return a ? SIMT_WMMA_TABLE(kF16_m8n32k16_a) : SIMT_WMMA_TABLE(kF16_m8n32k16_b);
      if (bf16) return a ? SIMT_WMMA_TABLE(kBf16_m8n32k16_a) : SIMT_WMMA_TABLE(kBf16_m8n32k16_b);
      return a ? SIMT_WMMA_TABLE(kI8_m8n32k16_a) : SIMT_WMMA_TABLE(kI8_m8n32k16_b);
    }
  }
}
template <int M, int N> constexpr Table accumulator_table() {
  if constexpr (M == 16) return SIMT_WMMA_TABLE(kAcc_m16n16);
  else if constexpr (M == 32) return SIMT_WMMA_TABLE(kAcc_m32n8);
  else return SIMT_WMMA_TABLE(kAcc_m8n32);
}
#undef SIMT_WMMA_TABLE

template <class Use, int M, int N, int K, Math I> constexpr Table table_of() {
  if constexpr (__is_same(Use, W::accumulator)) return accumulator_table<M, N>();
  else return input_table<Use, M, N, K, I>();
}

template <class Use, int M, int N, int K, class T> struct Spec {
  using Storage = typename Element<T>::Storage;
  static constexpr Math math = Element<T>::math;
  static constexpr bool is_a = __is_same(Use, W::matrix_a), is_b = __is_same(Use, W::matrix_b);
  static constexpr int rows = is_a ? M : is_b ? K : M;
  static constexpr int cols = is_a ? K : N;
  static constexpr Table table = table_of<Use, M, N, K, math>();
  static_assert(is_a || is_b || math == Math::F32 || math == Math::Half || math == Math::S32,
                "wmma: accumulators hold float, __half or int");
};

// An element as the MMA reads it: exact as a double.
template <class S> inline double value(const S& x, Math m) {
  if constexpr (__is_same(S, __half)) return narrow::to_double(x.__x, narrow::kHalf);
  else if constexpr (__is_same(S, __nv_bfloat16)) return narrow::to_double(x.__x, narrow::kBf16);
  else if constexpr (__is_same(S, float)) {
    std::uint32_t b;
    std::memcpy(&b, &x, 4);
    // tf32: the tensor core reads 10 fraction bits and drops the rest (measured on
    // fragments loaded without __float_to_tf32)
    if (m == Math::Tf32 && (b & 0x7f800000u) != 0x7f800000u) b &= ~0x1fffu;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  } else {
    return double(x);
  }
}

}  // namespace simt::cuda::wmma_detail
