// Microbenchmarks for the kernel time model's constants (cost/devices.json,
// "kernel_model"): each kernel loads one hardware limit, at two sizes, so the
// slope between them is a rate and the intercept the fixed cost. Launched by
// tests/cuda/time_micro_main.cu; fitted by tests/cuda/calibrate_time_model.py micro.
// Single source: the same file runs on the GPU (nvcc) and in the simulator.
#pragma once
#include "sim/cuda/dialect.cuh"

// Nothing: launch overhead.
__global__ void micro_empty() {}

// DRAM: a float4 copy, coalesced; bytes / time is the achievable bandwidth.
__global__ void micro_copy(const float4* in, float4* out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// L1-to-L2 line requests: every lane stores into its own 128-byte line.
__global__ void micro_store_scattered(f32* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[static_cast<long long>(i) * 32] = f32(i);
}

// Shared wavefronts: `reps` independent reads per thread, `stride` words apart
// across the warp (1: conflict-free, 32: every lane in one bank).
__global__ void micro_shared_stride(f32* out, int stride, int reps) {
  __shared__ f32 s[1024];
  const int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = f32(i);
  __syncthreads();
  f32 a = 0.0f, b = 0.0f;
  for (int r = 0; r < reps; r += 2) {
    a += s[((t & 31) * stride + r) & 1023];
    b += s[((t & 31) * stride + r + 1) & 1023];
  }
  out[blockIdx.x * blockDim.x + t] = a + b;
}

// Shared latency: one warp follows a chain of `reps` dependent shared loads.
__global__ void micro_shared_chain(int* out, int reps) {
  __shared__ int next[32];
  const int t = threadIdx.x;
  next[t] = (t + 1) & 31;
  __syncthreads();
  int i = t;
  for (int r = 0; r < reps; ++r) i = next[i];
  out[t] = i;
}

// Shuffle latency: one warp, `reps` dependent shuffles.
__global__ void micro_shuffle_chain(int* out, int reps) {
  int x = threadIdx.x;
  for (int r = 0; r < reps; ++r) x = __shfl_xor_sync(0xffffffffu, x, 1) + 1;
  out[threadIdx.x] = x;
}

// Barrier latency: one block of 256 threads passes `reps` barriers.
__global__ void micro_barrier_chain(int* out, int reps) {
  for (int r = 0; r < reps; ++r) __syncthreads();
  if (threadIdx.x == 0) out[0] = reps;
}

// Same-address atomics: every thread of the grid adds to one word.
__global__ void micro_atomic_storm(f32* out) { atomicAdd(out, 1.0f); }

// Waves: blocks of 1024 threads (two per SM by threads) each running a dependent
// FP chain; a grid of 2 x SMs blocks is one wave, one block more is two.
__global__ void micro_wave(f32* out, int reps) {
  f32 x = f32(threadIdx.x);
  for (int r = 0; r < reps; ++r) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
