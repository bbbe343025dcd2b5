// Loads of __half, bfloat16 and fp8 values go through simtlab's headers (a marker the
// pass binds to a site, simt_cuda/narrow_ops.h's load_ref), yet they are the kernel's
// own loads: their sites carry the loop they sit in, as a float's do, so that the
// kernel time model overlaps a loop's loads (docs/cost-model.md, load_chain). One load
// outside any loop is straight-line.
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cstdio>

__global__ void sum_halves(const __half* x, const __nv_fp8_e4m3* y, float* out, int n) {
  float s = __half2float(x[0]);  // straight-line
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += __half2float(x[i]) + float(y[i]);
  out[threadIdx.x] = s;
}

int main() {
  const int n = 4096;
  __half* x;
  __nv_fp8_e4m3* y;
  float* out;
  cudaMalloc(&x, n * sizeof(__half));
  cudaMalloc(&y, n);
  cudaMalloc(&out, 128 * sizeof(float));
  cudaMemset(x, 0, n * sizeof(__half));
  cudaMemset(y, 0, n);
  sum_halves<<<1, 128>>>(x, y, out, n);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
