// Idioms from CUDA tutorials, in plain CUDA: a grid-stride SAXPY with a struct
// parameter, the textbook tiled matrix multiply, a privatised histogram with
// shared atomics, a warp-shuffle sum with a double atomicAdd and device printf,
// and an indexed gather. `simt exec examples/tutorial_idioms.cu` runs it as is.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define TILE_WIDTH 16
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("err %s\n", cudaGetErrorString(e_)); return 1; } } while (0)

struct Params { int n; float alpha; };

__device__ __forceinline__ float warpReduceSum(float val) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    val += __shfl_down_sync(0xffffffff, val, offset);
  return val;
}

__global__ void __launch_bounds__(256, 2) saxpy(Params p, const float* __restrict__ x, float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < p.n; i += blockDim.x * gridDim.x)
    y[i] = p.alpha * x[i] + y[i];
}

__global__ void MatrixMulKernel(float* Md, float* Nd, float* Pd, int Width) {
  __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int m = 0; m < Width / TILE_WIDTH; ++m) {
    Mds[ty][tx] = Md[Row * Width + (m * TILE_WIDTH + tx)];
    Nds[ty][tx] = Nd[(m * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_WIDTH; ++k) Pvalue += Mds[ty][k] * Nds[k][tx];
    __syncthreads();
  }
  Pd[Row * Width + Col] = Pvalue;
}

__global__ void histo_kernel(const unsigned int* buffer, long size, unsigned int* histo) {
  __shared__ unsigned int histo_private[256];
  if (threadIdx.x < 256) histo_private[threadIdx.x] = 0;
  __syncthreads();
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&(histo_private[buffer[i] % 256]), 1);
    i += stride;
  }
  __syncthreads();
  if (threadIdx.x < 256) atomicAdd(&(histo[threadIdx.x]), histo_private[threadIdx.x]);
}

__global__ void sum_kernel(const float* in, double* out, int n) {
  float v = 0.0f;
  for (int i = threadIdx.x; i < n; i += 32) v += in[i];
  v = warpReduceSum(v);
  if (threadIdx.x == 0) {
    atomicAdd(out, (double)v);
    printf("block %d partial %.1f\n", blockIdx.x, v);
  }
}

__global__ void gather(const int* idx, const float* src, float* dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = sqrtf(fabsf(src[idx[i]])) + static_cast<float>(i % 2);
}

int main() {
  const int W = 64, N = W * W;
  std::vector<float> h(N), r(N);
  for (int i = 0; i < N; ++i) h[i] = (i % 7) - 3.0f;
  float *dA, *dB, *dC;
  CUDA_CHECK(cudaMalloc(&dA, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dB, N * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&dC, N * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dA, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dB, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  cudaEventCreate(&start); cudaEventCreate(&stop);
  cudaEventRecord(start);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid(W / TILE_WIDTH, W / TILE_WIDTH);
  MatrixMulKernel<<<dimGrid, dimBlock>>>(dA, dB, dC, W);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0; cudaEventElapsedTime(&ms, start, stop);
  CUDA_CHECK(cudaMemcpy(r.data(), dC, N * sizeof(float), cudaMemcpyDeviceToHost));
  printf("C[0] = %.1f C[last] = %.1f\n", r[0], r[N - 1]);

  Params p{N, 2.0f};
  saxpy<<<8, 256>>>(p, dA, dB);
  CUDA_CHECK(cudaMemcpy(r.data(), dB, N * sizeof(float), cudaMemcpyDeviceToHost));
  printf("saxpy y[5] = %.1f\n", r[5]);

  unsigned int *dbuf, *dh;
  std::vector<unsigned int> hb(N);
  for (int i = 0; i < N; ++i) hb[i] = i * 7;
  cudaMalloc(&dbuf, N * sizeof(unsigned int));
  cudaMalloc(&dh, 256 * sizeof(unsigned int));
  cudaMemset(dh, 0, 256 * sizeof(unsigned int));
  cudaMemcpy(dbuf, hb.data(), N * sizeof(unsigned int), cudaMemcpyHostToDevice);
  histo_kernel<<<4, 256>>>(dbuf, N, dh);
  std::vector<unsigned int> hh(256);
  cudaMemcpy(hh.data(), dh, 256 * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  printf("histo[0] = %u histo[7] = %u\n", hh[0], hh[7]);

  double* dsum; cudaMalloc(&dsum, sizeof(double)); cudaMemset(dsum, 0, sizeof(double));
  sum_kernel<<<1, 32>>>(dA, dsum, N);
  double hs; cudaMemcpy(&hs, dsum, sizeof(double), cudaMemcpyDeviceToHost);
  printf("sum = %.1f\n", hs);

  int* didx; std::vector<int> hi(N);
  for (int i = 0; i < N; ++i) hi[i] = (i * 13) % N;
  cudaMalloc(&didx, N * sizeof(int));
  cudaMemcpy(didx, hi.data(), N * sizeof(int), cudaMemcpyHostToDevice);
  gather<<<(N + 127) / 128, 128>>>(didx, dA, dC, N);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(r.data(), dC, N * sizeof(float), cudaMemcpyDeviceToHost));
  printf("gather %.3f %.3f\n", r[1], r[2]);
  return 0;
}
