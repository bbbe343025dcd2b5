// simtlab's <cublasLt.h>: handle creation and destruction only (see cublas_v2.h).
#pragma once
#include "cublas_v2.h"

struct simt_cublaslt_context {};
typedef simt_cublaslt_context* cublasLtHandle_t;

inline cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new simt_cublaslt_context;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
