// simtlab's <cublas_v2.h> for the compiler front end: handles, math modes, and the
// GEMMs course code and llm.c call (cublasSgemm, cublasGemmEx, the strided-batched
// forms). Each GEMM is computed on the host by Eigen and recorded as one simulated
// launch named after the call, with the counters of the tiled GEMM it stands for
// (sim/libs/gemm.hpp, docs/frontend.md "cuBLAS"). Other cuBLAS calls are not
// declared: using one is a compile error naming it, never a silently wrong result.
#pragma once
#include "cuda_runtime.h"
// CUDA's cublas_api.h includes both: programs (llm.c's common.h) use __nv_bfloat16 through it.
#include "cuda_bf16.h"
#include "cuda_fp16.h"
#include "sim/libs/gemm.hpp"

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
} cublasStatus_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
} cublasMath_t;

typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
} cublasComputeType_t;

typedef enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1, CUBLAS_OP_C = 2 } cublasOperation_t;

typedef enum {
  CUDA_R_16F = 2,
  CUDA_R_32F = 0,
  CUDA_R_64F = 1,
  CUDA_R_16BF = 14,
} cudaDataType_t;
typedef cudaDataType_t cudaDataType;

struct simt_cublas_context {
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
  cudaStream_t stream = nullptr;
};
typedef simt_cublas_context* cublasHandle_t;

inline cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new simt_cublas_context;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  if (!handle || !mode) return CUBLAS_STATUS_NOT_INITIALIZED;
  *mode = handle->math;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

typedef enum { CUBLAS_GEMM_DEFAULT = -1, CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99 } cublasGemmAlgo_t;

inline const char* cublasGetStatusString(cublasStatus_t s) {
  switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    default: return "CUBLAS_STATUS_EXECUTION_FAILED";
  }
}

namespace simt::cublas {
// The element type of a cudaDataType, or false for one simtlab's GEMMs do not take.
inline bool element(cudaDataType_t t, simt::libs::ElemType* out) {
  if (t == CUDA_R_32F) *out = simt::libs::ElemType::F32;
  else if (t == CUDA_R_16F) *out = simt::libs::ElemType::F16;
  else if (t == CUDA_R_16BF) *out = simt::libs::ElemType::BF16;
  else return false;
  return true;
}
// The pipe cuBLAS runs a product on: 16-bit inputs on the tensor cores; FP32
// inputs on the tensor cores in TF32 when asked for (compute type or math mode),
// else FFMA. Other compute types (16F, 64F, the FAST_16F/16BF down-conversions)
// are refused, loudly.
inline bool math_for(cublasMath_t mode, cublasComputeType_t compute, simt::libs::ElemType a, simt::libs::GemmMath* out) {
  if (compute != CUBLAS_COMPUTE_32F && compute != CUBLAS_COMPUTE_32F_FAST_TF32 && compute != CUBLAS_COMPUTE_32F_PEDANTIC)
    return false;
  if (a != simt::libs::ElemType::F32) *out = simt::libs::GemmMath::Tensor16;
  else if (compute == CUBLAS_COMPUTE_32F_FAST_TF32 || (compute == CUBLAS_COMPUTE_32F && mode == CUBLAS_TF32_TENSOR_OP_MATH))
    *out = simt::libs::GemmMath::Tf32;
  else *out = simt::libs::GemmMath::Fp32;
  return true;
}
inline cublasStatus_t unsupported(const char* api, const char* what) {
  std::fprintf(stderr, "simtlab: %s: %s is not supported by simtlab's cuBLAS (docs/frontend.md)\n", api, what);
  return CUBLAS_STATUS_NOT_SUPPORTED;
}
inline cublasStatus_t run(simt::libs::GemmCall& g, cudaStream_t stream) {
  g.stream = stream;
  return cublasStatus_t(simt::libs::gemm(g));
}
inline simt::libs::GemmCall call(const char* api, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                 float alpha, float beta, int batch) {
  simt::libs::GemmCall g;
  g.api = api;
  g.trans_a = ta != CUBLAS_OP_N;
  g.trans_b = tb != CUBLAS_OP_N;
  g.m = m, g.n = n, g.k = k, g.batch = batch, g.alpha = alpha, g.beta = beta;
  return g;
}
}  // namespace simt::cublas

inline cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                                int m, int n, int k, const float* alpha, const float* A, int lda,
                                                long long strideA, const float* B, int ldb, long long strideB,
                                                const float* beta, float* C, int ldc, long long strideC, int batchCount) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  auto g = simt::cublas::call(batchCount == 1 ? "cublasSgemm" : "cublasSgemmStridedBatched", transa, transb, m, n, k,
                              *alpha, *beta, batchCount);
  g.a = {A, simt::libs::ElemType::F32, lda, strideA};
  g.b = {B, simt::libs::ElemType::F32, ldb, strideB};
  g.c = g.d = {C, simt::libs::ElemType::F32, ldc, strideC};
  simt::cublas::math_for(handle->math, CUBLAS_COMPUTE_32F, simt::libs::ElemType::F32, &g.math);
  return simt::cublas::run(g, handle->stream);
}
inline cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                  int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                                  const float* beta, float* C, int ldc) {
  return cublasSgemmStridedBatched(handle, transa, transb, m, n, k, alpha, A, lda, 0, B, ldb, 0, beta, C, ldc, 0, 1);
}
inline cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                                 int m, int n, int k, const void* alpha, const void* A,
                                                 cudaDataType_t Atype, int lda, long long strideA, const void* B,
                                                 cudaDataType_t Btype, int ldb, long long strideB, const void* beta,
                                                 void* C, cudaDataType_t Ctype, int ldc, long long strideC, int batchCount,
                                                 cublasComputeType_t computeType, cublasGemmAlgo_t /*algo*/) {
  const char* api = batchCount == 1 ? "cublasGemmEx" : "cublasGemmStridedBatchedEx";
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  simt::libs::ElemType ta, tb, tc;
  if (!simt::cublas::element(Atype, &ta) || !simt::cublas::element(Btype, &tb) || !simt::cublas::element(Ctype, &tc))
    return simt::cublas::unsupported(api, "this data type (CUDA_R_32F, CUDA_R_16F and CUDA_R_16BF are)");
  if (ta != tb) return simt::cublas::unsupported(api, "A and B of different types");
  // With a 32F compute type, alpha and beta are floats.
  auto g = simt::cublas::call(api, transa, transb, m, n, k, *static_cast<const float*>(alpha),
                              *static_cast<const float*>(beta), batchCount);
  if (!simt::cublas::math_for(handle->math, computeType, ta, &g.math))
    return simt::cublas::unsupported(api, "this compute type (CUBLAS_COMPUTE_32F and _32F_FAST_TF32 are)");
  g.a = {A, ta, lda, strideA};
  g.b = {B, tb, ldb, strideB};
  g.c = g.d = {C, tc, ldc, strideC};
  return simt::cublas::run(g, handle->stream);
}
inline cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                                   int k, const void* alpha, const void* A, cudaDataType_t Atype, int lda, const void* B,
                                   cudaDataType_t Btype, int ldb, const void* beta, void* C, cudaDataType_t Ctype, int ldc,
                                   cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  return cublasGemmStridedBatchedEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C,
                                    Ctype, ldc, 0, 1, computeType, algo);
}
