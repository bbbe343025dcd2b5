// simtlab's <curand_kernel.h>: cuRAND's device API for XORWOW (curandState, the
// default) and Philox4_32_10, with CUDA's integer sequences: the published
// generators, CUDA's seeding (curand_init's salts and its 2^67-step subsequences)
// and CUDA's conversions to floats. Integer outputs and curand_uniform*/
// curand_uniform_double are bit-identical with CUDA's; curand_normal* use CUDA's
// Box-Muller: logf, sqrtf and __sincosf (MUFU.SIN/COS), each with the H200's bits
// (sim/math).
// This code runs inside the user's kernel and is counted as the kernel's (its FP
// operations, and its accesses to a state kept in device memory).
#pragma once
#include <cuda_runtime.h>

#include <cmath>

#include "simt_cuda/xorwow_jump.h"

#define CURAND_2POW32_INV (2.3283064e-10f)
#define CURAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define CURAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define CURAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr, output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag, boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

namespace simt::rng {
constexpr int kExtraFlagNormal = 0x01;
}

// ---- XORWOW ----
__device__ inline unsigned int curand(curandStateXORWOW_t* state) {
  unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437;
  return state->v[4] + state->d;
}
__device__ inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  simt::rng::xorwow_jump(state->v, n, false);
  state->d += 362437u * (unsigned int)n;
}
__device__ inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  simt::rng::xorwow_jump(state->v, n, true);  // d moves by a multiple of 2^32
}
__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStateXORWOW_t* state) {
  unsigned int s0 = ((unsigned int)seed) ^ 0xaad26b49u;
  unsigned int s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
  unsigned int t0 = 1099087573u * s0;
  unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
}

// ---- Philox4_32_10 ----
namespace simt::rng {
__device__ inline uint4 philox_round(uint4 c, uint2 k) {
  const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
  return make_uint4(unsigned(p1 >> 32) ^ c.y ^ k.x, unsigned(p1), unsigned(p0 >> 32) ^ c.w ^ k.y, unsigned(p0));
}
__device__ inline uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int round = 0; round < 9; ++round) {
    c = philox_round(c, k);
    k.x += 0x9E3779B9u;
    k.y += 0xBB67AE85u;
  }
  return philox_round(c, k);
}
__device__ inline void philox_incr(curandStatePhilox4_32_10_t* s) {
  if (++s->ctr.x) return;
  if (++s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}
__device__ inline void philox_incr(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  unsigned int nlo = (unsigned int)n, nhi = (unsigned int)(n >> 32);
  s->ctr.x += nlo;
  if (s->ctr.x < nlo) nhi++;
  s->ctr.y += nhi;
  if (nhi <= s->ctr.y) return;
  if (++s->ctr.z) return;
  ++s->ctr.w;
}
__device__ inline void philox_incr_hi(curandStatePhilox4_32_10_t* s, unsigned long long n) {
  unsigned int nlo = (unsigned int)n, nhi = (unsigned int)(n >> 32);
  s->ctr.z += nlo;
  if (s->ctr.z < nlo) nhi++;
  s->ctr.w += nhi;
}
}  // namespace simt::rng

__device__ inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += (n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  simt::rng::philox_incr(state, n);
  state->output = simt::rng::philox4x32_10(state->ctr, state->key);
}
__device__ inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  simt::rng::philox_incr_hi(state, n);
  state->output = simt::rng::philox4x32_10(state->ctr, state->key);
}
__device__ inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   curandStatePhilox4_32_10_t* state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key.x = (unsigned int)seed;
  state->key.y = (unsigned int)(seed >> 32);
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.f;
  state->boxmuller_extra_double = 0.;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}
__device__ inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  unsigned int ret;
  switch (state->STATE++) {
    default: ret = state->output.x; break;
    case 1: ret = state->output.y; break;
    case 2: ret = state->output.z; break;
    case 3: ret = state->output.w; break;
  }
  if (state->STATE == 4) {
    simt::rng::philox_incr(state);
    state->output = simt::rng::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return ret;
}
__device__ inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  uint4 tmp = state->output;
  simt::rng::philox_incr(state);
  state->output = simt::rng::philox4x32_10(state->ctr, state->key);
  switch (state->STATE) {
    case 1: return make_uint4(tmp.y, tmp.z, tmp.w, state->output.x);
    case 2: return make_uint4(tmp.z, tmp.w, state->output.x, state->output.y);
    case 3: return make_uint4(tmp.w, state->output.x, state->output.y, state->output.z);
    default: return tmp;
  }
}

// ---- Distributions (CUDA's conversions: an I2F, an FMUL and an FADD per value) ----
namespace simt::rng {
__device__ inline float uniform(unsigned int x) { return x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2.0f); }
__device__ inline double uniform_double_hq(unsigned int x, unsigned int y) {
  unsigned long long z = (unsigned long long)x ^ ((unsigned long long)y << (53 - 32));
  return z * CURAND_2POW53_INV_DOUBLE + (CURAND_2POW53_INV_DOUBLE / 2.0);
}
__device__ inline float2 box_muller(unsigned int x, unsigned int y) {
  float u = x * CURAND_2POW32_INV + (CURAND_2POW32_INV / 2);
  float v = y * CURAND_2POW32_INV_2PI + (CURAND_2POW32_INV_2PI / 2);
  float s = sqrtf(-2.0f * logf(u));
  float2 r;
  __sincosf(v, &r.x, &r.y);
  r.x *= s;
  r.y *= s;
  return r;
}
template <class S> __device__ inline float normal(S* state) {
  if (state->boxmuller_flag != kExtraFlagNormal) {
    unsigned int x = curand(state);
    unsigned int y = curand(state);
    float2 v = box_muller(x, y);
    state->boxmuller_extra = v.y;
    state->boxmuller_flag = kExtraFlagNormal;
    return v.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
}  // namespace simt::rng

__device__ inline float curand_uniform(curandStateXORWOW_t* state) { return simt::rng::uniform(curand(state)); }
__device__ inline float curand_uniform(curandStatePhilox4_32_10_t* state) { return simt::rng::uniform(curand(state)); }
__device__ inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  uint4 x = curand4(state);
  return make_float4(simt::rng::uniform(x.x), simt::rng::uniform(x.y), simt::rng::uniform(x.z),
                     simt::rng::uniform(x.w));
}
__device__ inline double curand_uniform_double(curandStateXORWOW_t* state) {
  unsigned int x = curand(state);
  unsigned int y = curand(state);
  return simt::rng::uniform_double_hq(x, y);
}
// Philox's double is one 32-bit draw (CUDA's _curand_uniform_double).
__device__ inline double curand_uniform_double(curandStatePhilox4_32_10_t* state) {
  return curand(state) * CURAND_2POW32_INV_DOUBLE + CURAND_2POW32_INV_DOUBLE;
}
__device__ inline float curand_normal(curandStateXORWOW_t* state) { return simt::rng::normal(state); }
__device__ inline float curand_normal(curandStatePhilox4_32_10_t* state) { return simt::rng::normal(state); }
__device__ inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  uint4 x = curand4(state);
  float2 a = simt::rng::box_muller(x.x, x.y), b = simt::rng::box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
