// A __host__ __device__ function called from host code with a device pointer: on a
// GPU the host's load faults. Here too, naming the function's line.
#include <cstdio>
#include <cuda_runtime.h>

__host__ __device__ float twice(const float* p) { return 2.0f * p[0]; }  // line 6

__global__ void k(const float* in, float* out) { out[threadIdx.x] = twice(in + threadIdx.x); }

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 32 * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(in, 0, 32 * sizeof(float));
  k<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  printf("%.1f\n", twice(out));  // the host calls it with a device pointer
  return 0;
}
