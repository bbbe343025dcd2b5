// What <cuda_fp16.h> and <cuda_bf16.h> share: the operations on a 16-bit float
// type H (a struct holding its bits in `__x`) and its pair H2 (members x, y), and how
// each is counted. The arithmetic is narrow_float.h's, exact to the bit; the counting
// names the SASS instructions nvcc 13 emits for the operation on sm_90 (measured on
// the H200: docs/counters.md, "fp16 and bf16"), through the marker __simt_site_fp.
//
// simtlab's headers are not instrumented, so a load of a 16-bit value they make
// through a reference (a member conversion, a compound assignment) says so with
// __simt_site_access; functions taking values by copy leave the load to the caller,
// where the pass sees it.
#pragma once
#include "simt_cuda/markers.h"
#include "sim/math/narrow_float.h"
#include "sim/types/events.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace simt::cuda::narrow {

// The SASS instructions one thread executes for an operation.
struct Sass {
  unsigned char hadd = 0, hmul = 0, hfma = 0, fadd = 0, fmul = 0, ffma = 0;
  bool packed = false;  // HADD2/HMUL2/HFMA2 on both halves: two results
};

inline void count_n(FpOp op, unsigned n) {
  for (unsigned i = 0; i < n; ++i) switch (op) {
      case FpOp::HAdd: __simt_site_fp_hadd(); break;
      case FpOp::HMul: __simt_site_fp_hmul(); break;
      case FpOp::HFma: __simt_site_fp_hfma(); break;
      case FpOp::HAdd2: __simt_site_fp_hadd2(); break;
      case FpOp::HMul2: __simt_site_fp_hmul2(); break;
      case FpOp::HFma2: __simt_site_fp_hfma2(); break;
      case FpOp::FAdd: __simt_site_fp_fadd(); break;
      case FpOp::FMul: __simt_site_fp_fmul(); break;
      case FpOp::FFma: __simt_site_fp_ffma(); break;
      default: break;
    }
}
inline void count(Sass s) {
  count_n(s.packed ? FpOp::HAdd2 : FpOp::HAdd, s.hadd);
  count_n(s.packed ? FpOp::HMul2 : FpOp::HMul, s.hmul);
  count_n(s.packed ? FpOp::HFma2 : FpOp::HFma, s.hfma);
  count_n(FpOp::FAdd, s.fadd);
  count_n(FpOp::FMul, s.fmul);
  count_n(FpOp::FFma, s.ffma);
}

// Per type: its format and what each operation costs (specialised by the headers).
template <class H> struct Traits;

template <class H> inline std::uint16_t bits(H h) { return h.__x; }
template <class H> inline H make(std::uint16_t b) {
  H h;
  h.__x = b;
  return h;
}
template <class H> inline double value(H h) { return to_double(h.__x, Traits<H>::format); }
template <class H> inline H round(double x, Round r = Round::Nearest) { return make<H>(from_double(x, Traits<H>::format, r)); }

// A read or write of a 16-bit value through a reference: the kernel's own access.
template <class T> inline T load_ref(const T& r) {
  __simt_site_access(&r, sizeof(T), 0);
  return r;
}
template <class T> inline void store_ref(T& r, T v) {
  __simt_site_access(&r, sizeof(T), 1);
  r = v;
}

// Math: a transcendental's float path (hsqrt, hrcp ...); Exp, Log, Sin: those of
// hexp, hlog, hsin/hcos, with their special cases.
enum class Op { Add, Sub, Mul, Div, Fma, Neg, Abs, Min, Max, ToFloat, FromFloat, Math, Exp, Log, Sin };

template <class H> inline H add(H a, H b) { return round<H>(value(a) + value(b)); }
template <class H> inline H sub(H a, H b) { return round<H>(value(a) - value(b)); }
template <class H> inline H mul(H a, H b) { return round<H>(value(a) * value(b)); }
template <class H> inline H div(H a, H b) { return round<H>(value(a) / value(b)); }
template <class H> inline H fma(H a, H b, H c) { return make<H>(narrow::fma(a.__x, b.__x, c.__x, Traits<H>::format)); }
template <class H> inline bool nan(H a) { return is_nan(a.__x, Traits<H>::format); }
// Negation and absolute value run as HADD2/HFMA2 (x + -0): a NaN comes out as the
// canonical NaN, not with its payload and sign flipped (measured on the H200).
template <class H> inline H neg(H a) {
  return make<H>(nan(a) ? Traits<H>::format.nan : std::uint16_t(a.__x ^ 0x8000));
}
template <class H> inline H abs(H a) {
  return make<H>(nan(a) ? Traits<H>::format.nan : std::uint16_t(a.__x & 0x7fff));
}
template <class H> inline H canonical_nan() { return make<H>(Traits<H>::format.nan); }
template <class H> inline H quiet(H r) { return nan(r) ? canonical_nan<H>() : r; }
// Clamped to [0, 1]; NaN gives +0 (CUDA's _sat).
template <class H> inline H sat(H r) {
  if (nan(r) || value(r) <= 0) return make<H>(0);
  return value(r) >= 1 ? round<H>(1.0) : r;
}
template <class H> inline H relu(H r) { return nan(r) ? canonical_nan<H>() : value(r) < 0 ? make<H>(0) : r; }
// max/min: a NaN operand loses to a number; both NaN give the canonical NaN;
// +0 is larger than -0.
template <class H> inline H max(H a, H b) {
  if (nan(a) && nan(b)) return canonical_nan<H>();
  if (nan(a)) return b;
  if (nan(b)) return a;
  if (value(a) == value(b)) return (a.__x & 0x8000) ? b : a;
  return value(a) > value(b) ? a : b;
}
template <class H> inline H min(H a, H b) {
  if (nan(a) && nan(b)) return canonical_nan<H>();
  if (nan(a)) return b;
  if (nan(b)) return a;
  if (value(a) == value(b)) return (a.__x & 0x8000) ? a : b;
  return value(a) < value(b) ? a : b;
}
template <class H> inline H max_nan(H a, H b) { return nan(a) || nan(b) ? canonical_nan<H>() : max(a, b); }
template <class H> inline H min_nan(H a, H b) { return nan(a) || nan(b) ? canonical_nan<H>() : min(a, b); }

// fp16 __hdiv: the GPU's reciprocal-and-multiply path refines a quotient below
// 0x008F (2^-13 and a bit) with two more FFMAs (cuda_fp16.hpp); the result is the
// correctly rounded quotient either way.
template <class H> inline H divide(H a, H b) {
  H q = quiet(div(a, b));
  if (Traits<H>::format.man_bits == 10 && (q.__x & 0x7fff) != 0 && (q.__x & 0x7fff) < 0x008f) count_n(FpOp::FFma, 2);
  return q;
}
// Integer conversions: round in the given mode, saturate to the type's range; NaN
// gives 0 for 32 bits and less, 0x8000000000000000 for 64 bits (signed or not), as
// CUDA 13 answers __half2ll_rz and __half2ull_rz (tests/cuda/fp8_conversions.cu).
template <class I> inline I to_int(double v, Round r) {
  if (std::isnan(v)) return sizeof(I) == 8 ? I(0x8000000000000000ull) : I(0);
  double t = r == Round::Nearest ? std::nearbyint(v) : r == Round::Zero ? std::trunc(v)
             : r == Round::Down  ? std::floor(v)     : std::ceil(v);
  constexpr double lo = double(std::numeric_limits<I>::min()), hi = double(std::numeric_limits<I>::max());
  if (t <= lo) return std::numeric_limits<I>::min();
  if (t >= hi) return std::numeric_limits<I>::max();
  return I(t);
}

// Rounding a value to an integral value of the same format (exact in double).
template <class H> inline H integral(H a, double (*fn)(double)) { return nan(a) ? canonical_nan<H>() : round<H>(fn(value(a))); }

}  // namespace simt::cuda::narrow
