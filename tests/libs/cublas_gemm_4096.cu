// A 4096 x 4096 x 4096 GEMM through cuBLAS, in FP32 (FFMA) and in bf16 with fp32
// accumulate (tensor cores): under simtlab the product is computed on the host and
// each call is one launch, timed at the rate of the pipe cuBLAS would use
// (docs/frontend.md, "cuBLAS"). `simt exec tests/libs/cublas_gemm_4096.cu`
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

int main() {
  const int n = 4096;
  std::vector<float> h(size_t(n) * n);
  for (size_t i = 0; i < h.size(); ++i) h[i] = float(int(i % 17) - 8) / 8.0f;  // exact in bf16
  std::vector<std::uint16_t> h16(h.size());
  for (size_t i = 0; i < h.size(); ++i) { std::uint32_t b; std::memcpy(&b, &h[i], 4); h16[i] = std::uint16_t(b >> 16); }
  float *a, *c;
  std::uint16_t *a16, *c16;
  cudaMalloc(&a, h.size() * 4);
  cudaMalloc(&c, h.size() * 4);
  cudaMalloc(&a16, h.size() * 2);
  cudaMalloc(&c16, h.size() * 2);
  cudaMemcpy(a, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(a16, h16.data(), h.size() * 2, cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1, zero = 0;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a16, CUDA_R_16BF, n, a16, CUDA_R_16BF, n, &zero, c16,
               CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  float c0;
  cudaMemcpy(&c0, c, 4, cudaMemcpyDeviceToHost);
  std::uint16_t b0;
  cudaMemcpy(&b0, c16, 2, cudaMemcpyDeviceToHost);
  std::uint32_t bits = std::uint32_t(b0) << 16;
  float f0;
  std::memcpy(&f0, &bits, 4);
  printf("C[0][0] fp32 %.6g  bf16 %.6g\n", c0, f0);
  cublasDestroy(handle);
  return 0;
}
