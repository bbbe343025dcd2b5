// __trap() stops the kernel: the launch fails with cudaErrorLaunchFailure
// ("unspecified launch failure"), and the diagnostic names the line.
#include <cstdio>

__global__ void check_positive(const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] < 0.0f) __trap();
}

int main() {
  float h[64];
  for (int i = 0; i < 64; ++i) h[i] = i == 40 ? -1.0f : 1.0f;
  float* d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  check_positive<<<2, 32>>>(d, 64);
  cudaError_t e = cudaDeviceSynchronize();
  printf("%d %s\n", int(e), cudaGetErrorString(e));
  return 0;
}
