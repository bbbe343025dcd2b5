// Shared loads nvcc fuses (sim/compiler/pass/fused_shared.hpp): each thread sums four
// consecutive words of a __shared__ array. From a 16-byte-aligned word (4t) they are
// one LDS.128 on sm_90; from 4t + 1 they are not aligned, and only the middle pair
// (4t + 2, 4t + 3, 8-byte aligned) is one LDS.64: three loads. The kernels differ in
// nothing else, so the instruction estimate must differ by two per warp.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kThreads = 256, kWords = 4 * kThreads + 4;

template <int kFirst>
__global__ void sum_four(float* out) {
  __shared__ float s[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) s[i] = float(i);
  __syncthreads();
  const float* p = s + 4 * threadIdx.x + kFirst;
  out[threadIdx.x] = p[0] + p[1] + p[2] + p[3];
}

int main() {
  float* out;
  cudaMalloc(&out, kThreads * sizeof(float));
  sum_four<0><<<1, kThreads>>>(out);
  sum_four<1><<<1, kThreads>>>(out);
  float last = 0;
  cudaMemcpy(&last, out + kThreads - 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s %.0f\n", cudaGetErrorString(cudaDeviceSynchronize()), last);  // 1021+1022+1023+1024
  cudaFree(out);
  return 0;
}
