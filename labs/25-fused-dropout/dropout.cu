// Lab 25 — fused bias + dropout + residual. Read labs/25-fused-dropout/README.md
// (simt lab show fused-dropout). Check your work: simt lab check fused-dropout dropout.cu
//
// This version is right but slow: three kernels, one per operator, as a framework runs
// them without fusion. Every intermediate goes to global memory and comes back.
#include "lab.cuh"

// t = x + bias[col], one thread per element.
__global__ void add_bias(const float* x, const float* bias, float* t, int n, int cols) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) t[k] = x[k] + bias[k % cols];
}

// u = dropout(t): kept values scaled by 1 / (1 - p), the others 0.
__global__ void dropout(const float* t, float* u, int n, float p, unsigned seed) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) u[k] = keep(seed, unsigned(k), p) ? t[k] * (1.0f / (1.0f - p)) : 0.0f;
}

// out = residual + u.
__global__ void add_residual(const float* residual, const float* u, float* out, int n) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) out[k] = residual[k] + u[k];
}

// TODO 1: fuse the three kernels into one: each thread reads its x, bias and residual
//         once, keeps x + bias and the dropout in registers, and writes out once.
//         No temporaries in global memory.
// TODO 2: let each thread take 4 consecutive elements with float4 loads and stores
//         (cudaMalloc's pointers are 16-byte aligned; element 4t is too). The same
//         sectors move in a quarter of the memory instructions. Mind the tail when
//         n % 4 != 0, and bias: a float4 of bias is only aligned when cols % 4 == 0.
void launch_bias_dropout_residual(const float* x, const float* bias, const float* residual, float* out, int rows,
                                  int cols, float p, unsigned seed) {
  const int n = rows * cols;
  float *t = nullptr, *u = nullptr;
  cudaMalloc(&t, n * sizeof(float));
  cudaMalloc(&u, n * sizeof(float));
  const unsigned threads = 256;
  add_bias<<<lab::blocks_for(n, threads), threads>>>(x, bias, t, n, cols);
  dropout<<<lab::blocks_for(n, threads), threads>>>(t, u, n, p, seed);
  add_residual<<<lab::blocks_for(n, threads), threads>>>(residual, u, out, n);
  cudaFree(t);
  cudaFree(u);
}
