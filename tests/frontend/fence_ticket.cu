// The "last block" reduction: each block publishes its partial sum, __threadfence(),
// then takes a ticket with an atomic; the block with the last ticket adds up the
// partials. The fence and the atomic order those reads after the writes, so this is
// not a race (CUDA's threadFenceReduction sample; llm.c's layernorm_backward kernel 5,
// where every thread fences). Built with -DNO_FENCE it is one: without the fence a GPU
// may show the last block a stale partial.
#include <cstdio>

#ifdef NO_FENCE
#define FENCE()
#else
#define FENCE() __threadfence()
#endif

// One thread publishes, fences and takes the ticket (threadFenceReduction).
__global__ void sum_one_thread(const float* in, float* partial, unsigned* tickets, float* out) {
  __shared__ float s[64];
  __shared__ bool last;
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int i = 0; i < 64; ++i) t += s[i];
    partial[blockIdx.x] = t;
    FENCE();
    last = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float t = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    out[0] = t;
  }
}

// Every thread publishes and fences; thread 0 takes the ticket (llm.c's shape).
__global__ void sum_all_threads(const float* in, float* partial, unsigned* tickets, float* out) {
  __shared__ unsigned ticket;
  partial[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f * in[blockIdx.x * blockDim.x + threadIdx.x];
  FENCE();
  __syncthreads();
  if (threadIdx.x == 0) ticket = atomicAdd(tickets, 1u);
  __syncthreads();
  if (ticket == gridDim.x - 1) {
    float t = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b * blockDim.x + threadIdx.x];
    out[1 + threadIdx.x] = t;
  }
}

int main() {
  const int blocks = 16, threads = 64, n = blocks * threads;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  float *in, *partial, *out;
  unsigned* tickets;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, sizeof h);
  cudaMalloc(&out, (1 + threads) * sizeof(float));
  cudaMalloc(&tickets, 2 * sizeof(unsigned));
  cudaMemset(tickets, 0, 2 * sizeof(unsigned));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum_one_thread<<<blocks, threads>>>(in, partial, tickets, out);
  cudaError_t e1 = cudaDeviceSynchronize();
  sum_all_threads<<<blocks, threads>>>(in, partial, tickets + 1, out);
  cudaError_t e2 = cudaDeviceSynchronize();
  float r[1 + threads];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("%.1f %.1f %s %s\n", r[0], r[threads], cudaGetErrorString(e1), cudaGetErrorString(e2));
  return 0;
}
