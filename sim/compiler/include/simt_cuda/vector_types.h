// CUDA's built-in vector types for the compiler front end: plain structs of the
// element type with CUDA's sizes and alignments. Copying a whole vector to or from
// device memory is one access of its size (an LDG.64/LDG.128 on the GPU); a member
// is an access of the element's size, seen by the pass like any other load.
#pragma once
#include "simt_cuda/markers.h"
#include "sim/types/vector_types.hpp"  // dim3, uint3: shared with the runtime

#include <cstring>

namespace simt::cuda {

template <class E, int N> struct VecFields;
template <class E> struct VecFields<E, 1> { E x; };
template <class E> struct VecFields<E, 2> { E x, y; };
template <class E> struct VecFields<E, 3> { E x, y, z; };
template <class E> struct VecFields<E, 4> { E x, y, z, w; };

constexpr unsigned vec_align(unsigned elem, int n) {
  return n == 3 ? elem : elem * unsigned(n) > 16 ? 16 : elem * unsigned(n);
}

template <class E, int N>
struct alignas(vec_align(sizeof(E), N)) Vec : VecFields<E, N> {
  Vec() = default;
  Vec(const Vec& o) {
    __simt_site_access(&o, sizeof(Vec), 0);
    std::memcpy(static_cast<void*>(this), &o, sizeof(Vec));
  }
  Vec& operator=(const Vec& o) {
    __simt_site_access(&o, sizeof(Vec), 0);
    __simt_site_access(this, sizeof(Vec), 1);
    std::memcpy(static_cast<void*>(this), &o, sizeof(Vec));
    return *this;
  }
};

}  // namespace simt::cuda

#define SIMT_VECTOR_TYPE(name, E)                                                     \
  using name##1 = simt::cuda::Vec<E, 1>;                                              \
  using name##2 = simt::cuda::Vec<E, 2>;                                              \
  using name##3 = simt::cuda::Vec<E, 3>;                                              \
  using name##4 = simt::cuda::Vec<E, 4>;                                              \
  inline name##1 make_##name##1(E x) { name##1 v; v.x = x; return v; }                   \
  inline name##2 make_##name##2(E x, E y) { name##2 v; v.x = x; v.y = y; return v; }     \
  inline name##3 make_##name##3(E x, E y, E z) { name##3 v; v.x = x; v.y = y; v.z = z; return v; } \
  inline name##4 make_##name##4(E x, E y, E z, E w) {                                  \
    name##4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v;                           \
  }
SIMT_VECTOR_TYPE(float, float)
SIMT_VECTOR_TYPE(double, double)
SIMT_VECTOR_TYPE(char, signed char)
SIMT_VECTOR_TYPE(uchar, unsigned char)
SIMT_VECTOR_TYPE(short, short)
SIMT_VECTOR_TYPE(ushort, unsigned short)
SIMT_VECTOR_TYPE(int, int)
SIMT_VECTOR_TYPE(long, long)
SIMT_VECTOR_TYPE(ulong, unsigned long)
SIMT_VECTOR_TYPE(longlong, long long)
SIMT_VECTOR_TYPE(ulonglong, unsigned long long)
#undef SIMT_VECTOR_TYPE
// uint3 is the runtime's own (threadIdx); the other unsigned vectors follow CUDA.
using uint1 = simt::cuda::Vec<unsigned, 1>;
using uint2 = simt::cuda::Vec<unsigned, 2>;
using uint4 = simt::cuda::Vec<unsigned, 4>;
inline uint2 make_uint2(unsigned x, unsigned y) { uint2 v; v.x = x; v.y = y; return v; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
  uint4 v; v.x = x; v.y = y; v.z = z; v.w = w; return v;
}
static_assert(sizeof(float4) == 16 && alignof(float4) == 16 && sizeof(float2) == 8 && alignof(float2) == 8);
static_assert(sizeof(double2) == 16 && alignof(double2) == 16 && sizeof(float3) == 12 && sizeof(char4) == 4);
