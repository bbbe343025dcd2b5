// Threads of a block reach one __syncthreads() along different paths; the
// compiler may duplicate the call into each path (tail duplication). A barrier
// is its source location, so every copy is the same barrier.
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ void publish(float* s, float v) {
  s[threadIdx.x] = v;
  __syncthreads();
}

__global__ void neighbours(const float* in, float* out) {
  __shared__ float s[64];
  float v = in[threadIdx.x];
  if (threadIdx.x & 1) publish(s, v * 2.0f);
  else publish(s, v + 1.0f);
  out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main() {
  float h[64];
  for (int i = 0; i < 64; ++i) h[i] = float(i);
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  neighbours<<<1, 64>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.1f %.1f %s\n", h[0], h[1], cudaGetErrorString(cudaGetLastError()));
  return 0;
}
