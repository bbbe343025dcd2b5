// A cuBLAS product whose input deferred launches write (an in-place kernel repeated,
// then a product of its result): the product is recorded at once — its counters and
// time follow from its shape — and computed in its turn, behind them, when the host
// reads its output. Then a bias added in place to the product, repeated with the
// product, as llm.c matmul_forward's benchmark does: all of it deferred.
#include <cstdio>
#include <cublas_v2.h>
#include <cuda_runtime.h>

__global__ void bump(float* x) { x[threadIdx.x] += 1.0f; }
__global__ void add_bias(float* c, float b) { c[threadIdx.x] += b; }

int main() {
  const int n = 16;
  float ones[n * n];
  for (float& v : ones) v = 1.0f;
  float *a, *c;
  cudaMalloc(&a, sizeof ones);
  cudaMalloc(&c, sizeof ones);
  cudaMemcpy(a, ones, sizeof ones, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  const float one = 1.0f, zero = 0.0f;
  for (int rep = 0; rep < 3; ++rep) bump<<<1, n * n>>>(a);  // launches 1-3: a = 4; 2 and 3 deferred
  for (int rep = 0; rep < 3; ++rep) {                        // 4-9: c = a * a + 0.5
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
    add_bias<<<1, n * n>>>(c, 0.5f);
  }
  float r[n * n];
  cudaMemcpy(r, c, sizeof r, cudaMemcpyDeviceToHost);
  printf("c %.1f %.1f\n", r[0], r[n * n - 1]);  // 16 * 4 * 4 + 0.5
  cublasDestroy(h);
  return 0;
}
