// Microbenchmarks for the kernel time model's constants (cost/catalog/devices.json,
// "kernel_model"): each kernel loads one hardware limit, at two sizes, so the
// slope between them is a rate and the intercept the fixed cost. Launched by
// tests/cuda/time_micro_main.cu; fitted by tests/cuda/calibrate_time_model.py micro.
// Plain CUDA, as tests/cuda/patterns.cuh.
#pragma once
#include <cuda_runtime.h>

// Nothing: launch overhead.
__global__ void micro_empty() {}

// DRAM: a float4 copy, coalesced; bytes / time is the achievable bandwidth.
__global__ void micro_copy(const float4* in, float4* out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

// L1-to-L2 line requests: every lane stores into its own 128-byte line.
__global__ void micro_store_scattered(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[static_cast<long long>(i) * 32] = float(i);
}

// Shared wavefronts: `reps` independent reads per thread, `stride` words apart
// across the warp (1: conflict-free, 32: every lane in one bank).
__global__ void micro_shared_stride(float* out, int stride, int reps) {
  __shared__ float s[1024];
  const int t = threadIdx.x;
  for (int i = t; i < 1024; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  float a = 0.0f, b = 0.0f;
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
__global__ void micro_atomic_storm(float* out) { atomicAdd(out, 1.0f); }

// Waves: blocks of 1024 threads (two per SM by threads) each running a dependent
// FP chain; a grid of 2 x SMs blocks is one wave, one block more is two.
__global__ void micro_wave(float* out, int reps) {
  float x = float(threadIdx.x);
  for (int r = 0; r < reps; ++r) x = x * 0.999f + 1.0f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// Integer issue: four independent integer chains per thread (multiply-add, shift,
// xor), no memory in the loop: warp instructions / time is the issue rate, and
// ncu's instruction count per iteration calibrates the front end's estimate of
// SASS instructions per IR instruction (docs/counters.md, "Instructions").
__global__ void micro_int_issue(unsigned* out, int reps) {
  unsigned a = threadIdx.x, b = blockIdx.x, c = a ^ 0x9e3779b9u, d = b + 7u;
  for (int r = 0; r < reps; ++r) {
    a = a * 1664525u + 1013904223u;
    b ^= b << 13;
    c = (c >> 3) + (c & 0xffu);
    d = d * 22695477u + 1u;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a ^ b ^ c ^ d;
}

// Integer division and remainder by a divisor known only at run time: the SASS
// sequence nvcc emits for `/` and `%` (a reciprocal estimate and corrections),
// the integer work of the strided-tensor kernels' index arithmetic.
__global__ void micro_int_div(int* out, int divisor, int reps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000, acc = 0;
  for (int r = 0; r < reps; ++r) {
    acc += x % divisor;
    x = x / divisor + r + 1000;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + x;
}

// L1 capacity: every block re-reads a window of `window` floats, coalesced, `reps`
// times; eight windows in all (block b reads window b % 8). With 1 K floats the
// eight windows (32 KB) stay in every SM's L1; with 32 K floats (1 MB) they do not,
// and each re-read is a line from L2. Same requests and instructions: the
// difference in time is the cost of an L1 miss that hits in L2, under full load.
__global__ void micro_l1_reuse(const float* in, float* out, int window, int reps) {
  const float* w = in + (blockIdx.x % 8) * window;
  float sum = 0.0f;
  for (int r = 0; r < reps; ++r) sum += w[(r * blockDim.x + threadIdx.x) & (window - 1)];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// L1-to-L2 line rate with a footprint that stays in L2: every lane stores into its
// own 128-byte line, `reps` times, among `lines` lines (16 MB for 128 K lines);
// unlike micro_store_scattered (512 MB of partial lines: DRAM read-modify-writes).
__global__ void micro_store_scattered_l2(float* out, int lines, int reps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int threads = gridDim.x * blockDim.x;
  for (int r = 0; r < reps; ++r) out[static_cast<long long>((i + r * threads) & (lines - 1)) * 32] = float(r);
}

// Dependent global-load latency: one thread follows `reps` loads, each address the
// value the previous one returned, around a ring of lines (tests/cuda/time_micro_main.cu
// writes `next`: every hop lands on another 128-byte line). A ring of 64 lines (8 KB)
// stays in L1 after its first lap; one of 8 K lines (1 MB, four times an SM's largest
// L1, a fiftieth of L2) misses L1 at every hop and hits L2 after the first lap. Two
// `reps` per ring, both past the first lap: the slope is one hop's latency, the
// round trip a loop of dependent loads waits (cost/kernel/kernel_terms.cpp, load_chain).
__global__ void micro_global_chain(const int* next, int* out, int reps) {
  int i = 0;
  for (int r = 0; r < reps; ++r) i = next[i];
  out[0] = i;
}

// A warp's loop of loads whose values the loop uses, the shape of the course
// kernels' k loops: `reps` iterations, each a coalesced load of one 128-byte line
// (its address depends on the iteration, not on the loaded values, so nvcc may
// unroll and hoist) added into a running sum, around `lines` lines: 64 (8 KB, L1
// hits after the first lap) or 8192 (1 MB: L2 hits). One warp on one SM; two `reps`
// per ring: the slope is the time one iteration waits, the load chain's round
// (cost/kernel/kernel_terms.cpp: the catalog's l2_load_round_clk).
__global__ void micro_load_loop(const float* in, float* out, int lines, int reps) {
  float acc = 0.0f;
  for (int r = 0; r < reps; ++r) acc += in[((r * 17) & (lines - 1)) * 32 + threadIdx.x];
  out[threadIdx.x] = acc;
}
