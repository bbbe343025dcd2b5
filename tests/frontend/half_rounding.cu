// fp16 and bf16 rounding corner cases, and how half-precision work is counted
// (issue 10). Each line prints a result's bits; the expected bits are IEEE's
// round-to-nearest-even, which sm_90 gives (docs/validation/h200-halfcg.md).
#include <cstdio>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void corners(unsigned short* out) {
  out[0] = __half_as_ushort(__float2half(1.0f + 1.0f / 2048));      // tie: to even 1.0 (3c00)
  out[1] = __half_as_ushort(__float2half(1.0f + 3.0f / 2048));      // tie: to even 1.00195 (3c02)
  out[2] = __half_as_ushort(__float2half(65520.0f));                // tie at the top: inf (7c00)
  out[3] = __half_as_ushort(__float2half(65519.0f));                // largest half (7bff)
  out[4] = __half_as_ushort(__float2half(0x1p-25f));                // tie with 0: +0 (0000)
  out[5] = __half_as_ushort(__float2half(0x1.000002p-25f));         // above the tie: min subnormal (0001)
  out[6] = __half_as_ushort(__hmul(__float2half(0x1p-14f), __float2half(0.5f)));  // subnormal 2^-15 (0200)
  out[7] = __half_as_ushort(__hadd(__float2half(65504.0f), __float2half(16.0f)));  // overflow: inf (7c00)
  out[8] = __half_as_ushort(__hfma(__float2half(3.0f), __float2half(683.0f), __ushort_as_half(1)));  // 2050 (6801)
  out[9] = __half_as_ushort(__hfma(__float2half(3.0f), __float2half(683.0f), __float2half(0.0f)));   // 2048 (6800)
  out[10] = __half_as_ushort(__float2half_rz(1.0f + 3.0f / 2048));  // toward zero (3c01)
  out[11] = __half_as_ushort(__float2half_ru(-65520.0f));           // up from below the range: -65504 (fbff)
  out[12] = __half_as_ushort(__hadd(__ushort_as_half(0x7c00), __ushort_as_half(0xfc00)));  // inf - inf: NaN (7fff)
  // bf16: 7 * 39 = 273 lies halfway between 272 and 274; a tiny addend decides.
  out[13] = __bfloat16_as_ushort(__hfma(__float2bfloat16(7.0f), __float2bfloat16(39.0f), __ushort_as_bfloat16(1)));  // 274 (4389)
  out[14] = __bfloat16_as_ushort(__hfma(__float2bfloat16(7.0f), __float2bfloat16(39.0f), __float2bfloat16(0.0f)));  // 272 (4388)
  out[15] = __bfloat16_as_ushort(__float2bfloat16(1.0f + 1.0f / 256));  // tie: to even (3f80)
  out[16] = __bfloat16_as_ushort(__float2bfloat16(1.0f + 3.0f / 256));  // tie: to even (3f82)
  out[17] = __bfloat16_as_ushort(__float2bfloat16(0x1p-133f));          // min bf16 subnormal (0001)
}

// One __hadd per thread on 2-byte elements; one __hadd2 per thread on 4-byte pairs.
__global__ void add_half(const __half* a, const __half* b, __half* c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = __hadd(a[i], b[i]);
}
__global__ void add_half2(const __half2* a, const __half2* b, __half2* c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
// Widening to float is an HADD2.F32 on sm_90, then an FADD.
__global__ void widen(const __half* a, float* c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = __half2float(a[i]) + 1.0f;
}

int main() {
  unsigned short* d;
  cudaMalloc(&d, 64);
  corners<<<1, 1>>>(d);
  unsigned short h[18];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 18; ++i) printf("%04x%c", h[i], i == 17 ? '\n' : ' ');

  const int n = 256;
  __half2* buf[3];
  for (auto& p : buf) cudaMalloc(&p, n * sizeof(__half2));
  __half2 init[n];
  for (int i = 0; i < n; ++i) init[i] = __floats2half2_rn(float(i), 0.5f);
  cudaMemcpy(buf[0], init, sizeof init, cudaMemcpyHostToDevice);
  cudaMemcpy(buf[1], init, sizeof init, cudaMemcpyHostToDevice);
  add_half<<<2, 128>>>((const __half*)buf[0], (const __half*)buf[1], (__half*)buf[2]);
  add_half2<<<2, 128>>>(buf[0], buf[1], buf[2]);
  cudaMemcpy(init, buf[2], sizeof init, cudaMemcpyDeviceToHost);
  printf("%.1f %.1f\n", __low2float(init[100]), __high2float(init[100]));
  float* f;
  cudaMalloc(&f, n * sizeof(float));
  widen<<<2, 128>>>((const __half*)buf[0], f);
  return 0;
}
