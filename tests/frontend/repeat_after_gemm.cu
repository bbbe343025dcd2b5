// A cuBLAS product writes the buffer a kernel reads: the kernel's next identical
// launch must run again, and see the product. The same product again, on buffers
// nothing wrote since, is a repeat: not computed again.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void scale(float* out, const float* in) { out[threadIdx.x] = 2.0f * in[threadIdx.x]; }

int main() {
  const int n = 16;
  float ones[n * n];
  for (float& v : ones) v = 1.0f;
  float *a, *c, *out;
  cudaMalloc(&a, sizeof ones);
  cudaMalloc(&c, sizeof ones);
  cudaMalloc(&out, sizeof ones);
  cudaMemcpy(a, ones, sizeof ones, cudaMemcpyHostToDevice);
  cudaMemset(c, 0, sizeof ones);
  cublasHandle_t h;
  cublasCreate(&h);
  const float one = 1.0f, zero = 0.0f;
  scale<<<1, n * n>>>(out, c);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);  // every element 16
  scale<<<1, n * n>>>(out, c);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);  // a repeat
  float r[n * n];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("out %.1f %.1f\n", r[0], r[n * n - 1]);
  cublasDestroy(h);
  return 0;
}
