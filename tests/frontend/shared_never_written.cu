// A __shared__ array nothing in the program writes: the optimizer sees a zero-filled
// variable only read and folds every read to zero, so no access is left to check
// (sim/compiler/pass/unwritten_shared.hpp). The read is reported at its line all the
// same. A second array, written only through a pointer a __device__ helper receives, is
// not reported: its values are the helper's.
#include <cstdio>

__device__ void fill(float* tile, int i) { tile[i] = float(i); }

__global__ void reads_unwritten(float* out) {
  __shared__ float never_written[64];
  out[threadIdx.x] = never_written[threadIdx.x] + 1.0f;
}

__global__ void reads_filled(float* out) {
  __shared__ float filled[64];
  fill(filled, threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = filled[63 - threadIdx.x];
}

int main() {
  float* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(float));
  reads_filled<<<1, 64>>>(out);
  std::printf("filled %s", cudaGetErrorName(cudaDeviceSynchronize()));
  float h[64];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf(" %g %g\n", h[0], h[63]);
  reads_unwritten<<<1, 64>>>(out);
  std::printf("unwritten %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
