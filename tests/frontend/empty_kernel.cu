// Kernels whose bodies do nothing visible: empty, or arithmetic never stored. Each
// launch still runs on the GPU (it is launched, timed and counted); the optimizer
// must not take a call of such a kernel for one without effect and drop the launch.
#include <cstdio>

__global__ void nothing() {}
__global__ void nothing_with_args(int a, float* p) {}
__global__ void computes_and_drops(float x) {
  float y = x;
  for (int i = 0; i < 8; ++i) y = y * 1.5f + 1.0f;
}

int main() {
  nothing<<<4, 32>>>();
  nothing_with_args<<<2, 64>>>(1, nullptr);
  computes_and_drops<<<1, 32>>>(2.0f);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("sync: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
