// Runs every canonical pattern once, in a fixed order, so Nsight Compute's
// per-launch metrics can be compared with the simulator's launch by launch.
// Build for the GPU:  nvcc -std=c++20 --fmad=false -arch=sm_90 -I. tests/cuda/patterns_main.cu
// Build for the simulator: CMake target patterns_sim (prints the launches as JSON).
#include "tests/cuda/patterns.cuh"

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 1024;  // 32 warps, one block of 256 and a grid of 4

template <class T>
T* device_array(std::size_t n) {
  std::vector<T> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = T(i % 97);
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

}  // namespace

// The launch list; patterns_sim and the ncu run both call it.
int run_patterns() {
  float* in = device_array<float>(kThreads * 33 + 64);
  float* out = device_array<float>(kThreads * 4);
  double* dout = device_array<double>(64);
  for (int stride : {1, 2, 4, 8, 32}) load_strided<<<kThreads / 256, 256>>>(in, out, stride, 0);
  load_strided<<<kThreads / 256, 256>>>(in, out, 1, 1);  // misaligned by 4 bytes
  load_strided<<<kThreads / 256, 256>>>(in, out, 1, 8);  // misaligned by 32 bytes
  load_broadcast<<<kThreads / 256, 256>>>(in, out);
  load_float4<<<kThreads / 4 / 256, 256>>>(reinterpret_cast<float4*>(in), reinterpret_cast<float4*>(out));
  for (int stride : {1, 2, 4, 8, 16, 32, 33}) shared_stride<<<1, 32>>>(out, stride);
  for (int stride : {1, 2}) shared_stride_f64<<<1, 32>>>(dout, stride);
  shared_broadcast<<<1, 32>>>(out);
  for (int stride : {1, 0, 2}) shared_float4<<<1, 32>>>(out, stride);
  flops_mul_add_fma<<<kThreads / 256, 256>>>(in, in + kThreads, out);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("patterns: %s\n", cudaGetErrorString(e));
  cudaFree(in);
  cudaFree(out);
  cudaFree(dout);
  return e == cudaSuccess ? 0 : 1;
}

#ifndef SIMT_PATTERNS_NO_MAIN
int main() { return run_patterns(); }
#endif
