// Short kernels and few-block grids, for the kernel time model's fixed costs and
// per-warp chains (docs/validation/h200-short-kernels.md). One program, a fixed list
// of launches: Nsight Compute times them on the GPU
// (bash tests/cuda/run_short_kernel_probe_gpu.sh OUT), and `simt exec --json` gives
// the simulator's counters of the same launches (python3 tests/cuda/time_model_set.py).
//
//   empty        a grid of empty blocks at several sizes and block shapes: launch,
//                block dispatch and the waves of blocks, with nothing to wait for
//   copy_one     one load and one store per thread: the first DRAM round trip and
//                the stores' drain, at grids of 1 block to many waves
//   shuffle_tree one load, then a warp's five dependent shuffles
//   block_reduce one load, then a block's shared-memory tree (a barrier per level)
//   row_gemv     y = A x with a thread per row (each thread streams its own row):
//                fp32 and int8, few blocks doing long work
// Every launch writes its output, so no compiler removes it. Plain CUDA.
#include "probe_check.cuh"

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void empty() {}

__global__ void copy_one(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + 1.0f;
}

__global__ void shuffle_tree(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int d = 16; d > 0; d /= 2) v += __shfl_xor_sync(0xffffffffu, v, d);
  if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

template <int kThreads>
__global__ void block_reduce(const float* in, float* out) {
  __shared__ float part[kThreads];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  part[threadIdx.x] = in[i];
  __syncthreads();
  for (int s = kThreads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

__global__ void row_gemv_fp32(const float* a, const float* x, float* y, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float* row = a + static_cast<long long>(r) * cols;
  float sum = 0.0f;
  for (int c = 0; c < cols; ++c) sum += row[c] * x[c];
  y[r] = sum;
}

__global__ void row_gemv_int8(const int8_t* a, const int8_t* x, int* y, int rows, int cols) {
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int8_t* row = a + static_cast<long long>(r) * cols;
  int sum = 0;
  for (int c = 0; c < cols; ++c) sum += int(row[c]) * int(x[c]);
  y[r] = sum;
}

namespace {

template <class T>
T* filled(long long n, T value) {
  std::vector<T> host(n, value);
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, host.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

}  // namespace

int main() {
  const int grids[] = {1, 132, 1056, 4224, 16896};  // 1 block; 1 per SM; 8, 32, 128 per SM (H200: 132 SMs)
  for (int threads : {32, 256, 1024})
    for (int blocks : grids) {
      empty<<<blocks, threads>>>();
      check("empty");
    }
  const long long most = 16896LL * 256;
  float* in = filled<float>(most, 1.0f);
  float* out = filled<float>(most, 0.0f);
  for (int blocks : grids) {
    copy_one<<<blocks, 256>>>(in, out);
    check("copy_one");
  }
  for (int blocks : grids) {
    shuffle_tree<<<blocks, 256>>>(in, out);
    check("shuffle_tree");
  }
  for (int blocks : grids) {
    block_reduce<256><<<blocks, 256>>>(in, out);
    check("block_reduce<256>");
  }
  for (int blocks : {1, 132, 1056, 4224}) {
    block_reduce<1024><<<blocks, 1024>>>(in, out);
    check("block_reduce<1024>");
  }
  // Row GEMVs: 32 blocks of 128 threads streaming rows of 4096, and 128 blocks of
  // 128 streaming rows of 1024 (the same 16 Mi elements).
  const int shapes[][2] = {{4096, 4096}, {16384, 1024}};
  float* af = filled<float>(16LL << 20, 0.5f);
  float* xf = filled<float>(4096, 0.25f);
  int8_t* ai = filled<int8_t>(16LL << 20, int8_t(3));
  int8_t* xi = filled<int8_t>(4096, int8_t(-2));
  int* yi = filled<int>(16384, 0);
  for (auto [rows, cols] : shapes) {
    row_gemv_fp32<<<rows / 128, 128>>>(af, xf, out, rows, cols);
    check("row_gemv_fp32");
    row_gemv_int8<<<rows / 128, 128>>>(ai, xi, yi, rows, cols);
    check("row_gemv_int8");
  }
  float yf = 0;
  int y8 = 0;
  cudaMemcpy(&yf, out, sizeof yf, cudaMemcpyDeviceToHost);
  cudaMemcpy(&y8, yi, sizeof y8, cudaMemcpyDeviceToHost);
  std::printf("short_kernel_probe: %d launches, y[0] fp32 %g int8 %d\n", 15 + 5 * 3 + 4 + 4, yf, y8);
  return 0;
}
