// Canonical access patterns whose counters are derived by hand in
// tests/sim/test_counter_rules.cpp and measured with Nsight Compute on a GPU
// (tests/cuda/patterns_main.cu, docs/validation/). Plain CUDA: nvcc and simtlab's
// compiler front end build the same text.
#pragma once
#include <cuda_runtime.h>

// Global loads at a stride (in floats) and a start offset (in floats); the store is
// always contiguous. Lane i of a warp reads in[offset + i*stride].
__global__ void load_strided(const float* in, float* out, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[offset + i * stride];
}

// Every lane reads the same word: one sector per request.
__global__ void load_broadcast(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[0];
}

// 16 bytes per lane in one instruction: one request, 512 bytes = 16 sectors.
__global__ void load_float4(const float4* in, float4* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// 4-byte shared stores and loads at a stride (in words): the wavefront count per
// instruction is the largest number of distinct words any one bank must serve.
__global__ void shared_stride(float* out, int stride) {
  __shared__ float s[32 * 33];
  int t = threadIdx.x;
  s[t * stride] = float(t);
  __syncthreads();
  out[t] = s[t * stride];
}

// 8-byte shared accesses at a stride (in doubles): processed per half-warp.
__global__ void shared_stride_f64(double* out, int stride) {
  __shared__ double s[32 * 2];
  int t = threadIdx.x;
  s[t * stride] = double(t);
  __syncthreads();
  out[t] = s[t * stride];
}

// 16-byte shared accesses: lane t reads float4 number t*stride (stride 0: all the same).
__global__ void shared_float4(float* out, int stride) {
  __shared__ float4 s[32 * 2];
  int t = threadIdx.x;
  s[t] = make_float4(float(t), 1.0f, 2.0f, 3.0f);
  s[32 + t] = make_float4(float(t), 1.0f, 2.0f, 3.0f);
  __syncthreads();
  float4 v = s[t * stride];
  out[t] = v.x + v.y + v.z + v.w;  // all four used, so nvcc keeps one LDS.128
}

// Every lane reads the same shared word: a broadcast, one wavefront.
__global__ void shared_broadcast(float* out) {
  __shared__ float s[32];
  int t = threadIdx.x;
  s[t] = float(t);
  __syncthreads();
  out[t] = s[0];
}

// One FMUL and one FADD per thread (separate: the CUDA build uses --fmad=false),
// then one FFMA because the source asks for it.
__global__ void flops_mul_add_fma(const float* a, const float* b, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i], y = b[i];
  float p = x * y + x;
  out[i] = fmaf(p, y, x);
}
