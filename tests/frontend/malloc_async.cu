// Stream-ordered allocation: cudaMallocAsync and cudaFreeAsync as plain allocation.
#include <cstdio>

__global__ void iota(int* out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* d = nullptr;
  cudaError_t e = cudaMallocAsync(&d, 32 * sizeof(int), s);
  iota<<<1, 32, 0, s>>>(d);
  int h[32] = {};
  cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
  cudaError_t f = cudaFreeAsync(d, s);
  cudaStreamSynchronize(s);
  printf("%s %s %d\n", cudaGetErrorName(e), cudaGetErrorName(f), h[31]);
  return 0;
}
