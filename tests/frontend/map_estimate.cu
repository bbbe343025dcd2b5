// The instruction estimate of HW1's map (kernels/map.cuh) at the course's default
// size: 64x128x128 viewed with its last two axes swapped, 1,048,576 threads. Its
// index loops run 3 times a thread: nvcc's 4x-unrolled code never enters the
// unrolled body, only the rolled remainder loop, each iteration with its own compare,
// branch and pointer steps. test_frontend.cpp compares with ncu's count on the H200.
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "kernels/map.cuh"

int main() {
  const strided::Shape shape = {64, 128, 128}, strides = {16384, 1, 128};  // permute(0, 2, 1)
  const int size = int(strided::numel(shape));
  strided::DeviceTensor in(std::vector<float>(std::size_t(size), 1.0f), shape, strides);
  float* out;
  cudaMalloc(&out, size * sizeof(float));
  map_strided<<<size / 256, 256>>>(out, size, in.view(), kRelu);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
