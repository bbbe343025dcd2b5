// grid.sync() in a kernel launched with <<<>>>: its blocks need not all be resident,
// so CUDA's grid_group is not valid there (is_valid() is false, sync() traps). The
// simulator fails the launch loudly, naming the line (issue 10).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void two_phase(float* data, int n, int* valid) {
  cg::grid_group grid = cg::this_grid();
  int i = int(grid.thread_rank());
  if (i == 0) *valid = grid.is_valid();
  if (i < n) data[i] = float(i);
  grid.sync();
  if (i < n) data[i] += data[n - 1 - i];
}

__global__ void validity(int* valid) { *valid = cg::this_grid().is_valid(); }

int main() {
  int n = 512;
  float* d;
  int* valid;
  cudaMalloc(&d, n * sizeof(float));
  cudaMalloc(&valid, sizeof(int));
  int v = -1;
  validity<<<1, 1>>>(valid);
  cudaMemcpy(&v, valid, sizeof(int), cudaMemcpyDeviceToHost);
  printf("plain launch: is_valid %d\n", v);
  void* args[] = {&valid};
  cudaLaunchCooperativeKernel(validity, dim3(1), dim3(1), args, 0, 0);
  cudaMemcpy(&v, valid, sizeof(int), cudaMemcpyDeviceToHost);
  printf("cooperative launch: is_valid %d\n", v);
  two_phase<<<2, 256>>>(d, n, valid);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
