// A grid-wide barrier needs every block resident at once; the simulator runs a
// launch's blocks a few at a time, so grid.sync() fails the launch loudly, naming
// its line, instead of deadlocking (issue 10).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void two_phase(float* data, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = int(grid.thread_rank());
  if (i < n) data[i] = float(i);
  grid.sync();
  if (i < n) data[i] += data[n - 1 - i];
}

int main() {
  int n = 512;
  float* d;
  cudaMalloc(&d, n * sizeof(float));
  void* args[] = {&d, &n};
  cudaError_t e = cudaLaunchCooperativeKernel(two_phase, dim3(2), dim3(256), args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return 0;
}
