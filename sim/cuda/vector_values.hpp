// CUDA's vector value types (float2, float4, int2, int4, ...). Copying a whole
// vector to or from device memory is ONE access of 8 or 16 bytes, exactly as an
// LDG.64/LDG.128 is on the GPU; touching a member is a 4-byte access.
#pragma once
#include "sim/cuda/scalar.hpp"

#include <cstring>

namespace simt {

template <class E, int N>
struct VecStorage;

template <class E>
struct alignas(2 * sizeof(E)) VecStorage<E, 2> {
  Scalar<E> x, y;
};
template <class E>
struct alignas(4 * sizeof(E) > 16 ? 16 : 4 * sizeof(E)) VecStorage<E, 4> {
  Scalar<E> x, y, z, w;
};

template <class E, int N>
struct Vec : VecStorage<E, N> {
  Vec() = default;
  SIMT_INLINE Vec(const Vec& o) {
    touch(&o, sizeof(Vec), MemOp::Load);
    std::memcpy(static_cast<void*>(this), opaque(&o), sizeof(Vec));
  }
  SIMT_INLINE Vec& operator=(const Vec& o) {
    touch(&o, sizeof(Vec), MemOp::Load);
    touch(this, sizeof(Vec), MemOp::Store);
    std::memcpy(static_cast<void*>(this), opaque(&o), sizeof(Vec));
    return *this;
  }

 private:
  // The source as a pointer the compiler knows nothing about: it may not load
  // through it before touch() has checked the address (a misaligned float4 would
  // fault in an aligned SSE load hoisted above the check), nor assume alignment.
  SIMT_INLINE static const void* opaque(const void* p) {
    asm("" : "+r"(p));
    return p;
  }
};

}  // namespace simt

using float2 = simt::Vec<float, 2>;
using float4 = simt::Vec<float, 4>;
using double2 = simt::Vec<double, 2>;
using int2 = simt::Vec<int, 2>;
using int4 = simt::Vec<int, 4>;
using uint2 = simt::Vec<unsigned, 2>;
using uint4 = simt::Vec<unsigned, 4>;
static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16);

SIMT_INLINE float2 make_float2(float x, float y) { float2 v; v.x.raw() = x; v.y.raw() = y; return v; }
SIMT_INLINE float4 make_float4(float x, float y, float z, float w) {
  float4 v; v.x.raw() = x; v.y.raw() = y; v.z.raw() = z; v.w.raw() = w; return v;
}
SIMT_INLINE int2 make_int2(int x, int y) { int2 v; v.x.raw() = x; v.y.raw() = y; return v; }
SIMT_INLINE int4 make_int4(int x, int y, int z, int w) {
  int4 v; v.x.raw() = x; v.y.raw() = y; v.z.raw() = z; v.w.raw() = w; return v;
}
SIMT_INLINE double2 make_double2(double x, double y) { double2 v; v.x.raw() = x; v.y.raw() = y; return v; }
