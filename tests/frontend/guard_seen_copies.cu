// What stays seen: memcpy and memset of device memory inside a kernel (constant
// and variable sizes), a float4 copy, __ldg, atomics, and managed memory that the
// host writes and reads around the launch. Every device access here is counted.
// The runtime's own copies reach device memory too: cudaMemcpyToSymbol from it.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

struct Row { float v[4]; };
__constant__ float first_out;

__global__ void copies(const Row* in, Row* out, float* flat, int n, int* counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  memcpy(&out[i], &in[i], sizeof(Row));                 // llvm.memcpy, 16 bytes
  memset(flat + 4 * i, 0, (i % 2 + 1) * sizeof(float));  // variable length
  flat[4 * i + 3] = __ldg(&in[i].v[3]);
  reinterpret_cast<float4*>(out)[i].x += 1.0f;
  atomicAdd(counter, 1);
}

int main() {
  const int n = 64;
  Row *in, *out;
  float* flat;
  int* counter;
  cudaMallocManaged(&in, n * sizeof(Row));
  cudaMalloc(&out, n * sizeof(Row));
  cudaMalloc(&flat, 4 * n * sizeof(float));
  cudaMallocManaged(&counter, sizeof(int));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) in[i].v[j] = float(4 * i + j);  // the host writes managed memory
  *counter = 0;
  copies<<<2, 32>>>(in, out, flat, n, counter);
  cudaDeviceSynchronize();
  Row h[n];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  float f[4 * n];
  cudaMemcpy(f, flat, sizeof f, cudaMemcpyDeviceToHost);
  float sym = 0;
  cudaMemcpyToSymbol(first_out, &out[1].v[2], sizeof(float), 0, cudaMemcpyDeviceToDevice);
  cudaMemcpyFromSymbol(&sym, first_out, sizeof(float));
  printf("out[5] = %.1f %.1f, flat[23] = %.1f, counter = %d, symbol = %.1f\n", h[5].v[0], h[5].v[3], f[23], *counter,
         sym);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
