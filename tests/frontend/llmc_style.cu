// The runtime surface of llm.c-style programs, in our own words: a user macro
// named cuda*, cuBLAS/cuBLASLt handle set-up, streams with flags, managed memory,
// device attributes, and 128-bit packed loads/stores through int4 with the
// cache-hinted __ldcs/__stcs.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

void cuda_check(cudaError_t error, const char* file, int line) {
  if (error != cudaSuccess) {
    printf("[CUDA ERROR] at file %s:%d:\n%s\n", file, line, cudaGetErrorString(error));
    exit(EXIT_FAILURE);
  }
}
#define cudaCheck(err) (cuda_check(err, __FILE__, __LINE__))

struct alignas(16) Pack4 {
  float v[4];
  __device__ float& operator[](int i) { return v[i]; }
};

__device__ Pack4 load_pack(const float* p) {
  int4 bits = __ldcs(reinterpret_cast<const int4*>(p));
  Pack4 r;
  memcpy(&r, &bits, sizeof r);
  return r;
}

__global__ void scale_packed(const float* in, float* out, float a, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= n) return;
  Pack4 x = load_pack(in + i);
  for (int k = 0; k < 4; ++k) x[k] = x[k] * a;
  int4 bits;
  memcpy(&bits, &x, sizeof bits);
  __stcs(reinterpret_cast<int4*>(out + i), bits);
}

int main() {
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS || cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) return 1;
  if (cublasSetMathMode(blas, CUBLAS_TF32_TENSOR_OP_MATH) != CUBLAS_STATUS_SUCCESS) return 1;
  int sms = 0, major = 0;
  cudaCheck(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaCheck(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  cudaStream_t stream;
  cudaCheck(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const int n = 4096;
  float *in, *out;
  cudaCheck(cudaMallocManaged(&in, n * sizeof(float)));
  cudaCheck(cudaMalloc(&out, n * sizeof(float)));
  for (int i = 0; i < n; ++i) in[i] = float(i);  // managed memory: written by the host
  scale_packed<<<n / 4 / 128, 128, 0, stream>>>(in, out, 0.5f, n);
  cudaCheck(cudaGetLastError());
  cudaEvent_t done;
  cudaCheck(cudaEventCreate(&done));
  cudaCheck(cudaEventRecord(done, stream));
  cudaCheck(cudaEventQuery(done));
  float h[n];
  cudaCheck(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  printf("sms>0 %d, major %d, out[4095] = %.1f\n", sms > 0, major, h[4095]);
  cublasLtDestroy(lt);
  cublasDestroy(blas);
  return 0;
}
