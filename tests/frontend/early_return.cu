// llm.c's pattern: threads past the end return before a __syncthreads() that
// the rest of the block reaches. On the H200 (CUDA 13) exited threads count as
// arrived: the kernel runs. The simulator runs it too, with a warning naming the
// barrier.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void block_sums(const float* in, float* out, int n) {
  __shared__ float s[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  s[threadIdx.x] = in[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    int valid = min(int(blockDim.x), n - int(blockIdx.x * blockDim.x));
    for (int k = 0; k < valid; ++k) t += s[k];
    out[blockIdx.x] = t;
  }
}

int main() {
  const int n = 200;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = 1.0f;
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 2 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  block_sums<<<2, 128>>>(in, out, n);
  float r[2];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%.1f %.1f %s\n", r[0], r[1], cudaGetErrorString(cudaGetLastError()));
  return 0;
}
