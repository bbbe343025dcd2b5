// simtlab's <cublasLt.h>: handles, matmul descriptors, matrix layouts, preferences,
// the heuristic query and cublasLtMatmul — the path llm.c's matmul_forward takes
// (a transposed weight, an epilogue adding a bias and applying GELU). The product
// is simtlab's host GEMM (sim/libs/gemm.hpp) recorded as one launch named
// "cublasLtMatmul". Attributes simtlab does not implement are refused with
// CUBLAS_STATUS_NOT_SUPPORTED and a message, never ignored.
#pragma once
#include "cublas_v2.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

struct simt_cublaslt_context {};
typedef simt_cublaslt_context* cublasLtHandle_t;

typedef enum {
  CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,
  CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
  CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
  CUBLASLT_MATMUL_DESC_TRANSA = 3,
  CUBLASLT_MATMUL_DESC_TRANSB = 4,
  CUBLASLT_MATMUL_DESC_TRANSC = 5,
  CUBLASLT_MATMUL_DESC_FILL_MODE = 6,
  CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
  CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
  CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,
  CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 13,
  CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,
} cublasLtMatmulDescAttributes_t;

typedef enum {
  CUBLASLT_EPILOGUE_DEFAULT = 1,
  CUBLASLT_EPILOGUE_RELU = 2,
  CUBLASLT_EPILOGUE_BIAS = 4,
  CUBLASLT_EPILOGUE_RELU_BIAS = 6,
  CUBLASLT_EPILOGUE_GELU = 32,
  CUBLASLT_EPILOGUE_GELU_BIAS = 36,
  CUBLASLT_EPILOGUE_GELU_AUX = 160,
  CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 164,
} cublasLtEpilogue_t;

typedef enum {
  CUBLASLT_MATRIX_LAYOUT_TYPE = 0,
  CUBLASLT_MATRIX_LAYOUT_ORDER = 1,
  CUBLASLT_MATRIX_LAYOUT_ROWS = 2,
  CUBLASLT_MATRIX_LAYOUT_COLS = 3,
  CUBLASLT_MATRIX_LAYOUT_LD = 4,
  CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
  CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,
} cublasLtMatrixLayoutAttribute_t;

typedef enum { CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1 } cublasLtMatmulPreferenceAttributes_t;

struct simt_cublaslt_desc {
  cublasComputeType_t compute;
  cudaDataType_t scale;
  cublasOperation_t transa = CUBLAS_OP_N, transb = CUBLAS_OP_N;
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  const void* bias = nullptr;
};
typedef simt_cublaslt_desc* cublasLtMatmulDesc_t;
struct simt_cublaslt_layout {
  cudaDataType_t type;
  std::uint64_t rows, cols;
  std::int64_t ld;
  int batch = 1;
  std::int64_t stride = 0;
};
typedef simt_cublaslt_layout* cublasLtMatrixLayout_t;
struct simt_cublaslt_preference {
  std::size_t workspace = 0;
};
typedef simt_cublaslt_preference* cublasLtMatmulPreference_t;
typedef struct { std::uint64_t data[8]; } cublasLtMatmulAlgo_t;
typedef struct {
  cublasLtMatmulAlgo_t algo;
  std::size_t workspaceSize;
  cublasStatus_t state;
  float wavesCount;
  int reserved[4];
} cublasLtMatmulHeuristicResult_t;

inline cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (!handle) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new simt_cublaslt_context;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* desc, cublasComputeType_t compute, cudaDataType_t scale) {
  if (!desc) return CUBLAS_STATUS_INVALID_VALUE;
  *desc = new simt_cublaslt_desc{compute, scale};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc) {
  delete desc;
  return CUBLAS_STATUS_SUCCESS;
}
namespace simt::cublas {
template <class T> inline bool read_attr(const void* buf, std::size_t size, T* out) {
  if (!buf || size != sizeof(T)) return false;
  std::memcpy(out, buf, sizeof(T));
  return true;
}
}  // namespace simt::cublas
inline cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                                                     const void* buf, std::size_t size) {
  if (!desc) return CUBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: ok = simt::cublas::read_attr(buf, size, &desc->compute); break;
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE: ok = simt::cublas::read_attr(buf, size, &desc->scale); break;
    case CUBLASLT_MATMUL_DESC_TRANSA: ok = simt::cublas::read_attr(buf, size, &desc->transa); break;
    case CUBLASLT_MATMUL_DESC_TRANSB: ok = simt::cublas::read_attr(buf, size, &desc->transb); break;
    case CUBLASLT_MATMUL_DESC_EPILOGUE: ok = simt::cublas::read_attr(buf, size, &desc->epilogue); break;
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: ok = simt::cublas::read_attr(buf, size, &desc->bias); break;
    default: return simt::cublas::unsupported("cublasLtMatmulDescSetAttribute", "this attribute");
  }
  return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

inline cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* layout, cudaDataType_t type, std::uint64_t rows,
                                                 std::uint64_t cols, std::int64_t ld) {
  if (!layout) return CUBLAS_STATUS_INVALID_VALUE;
  *layout = new simt_cublaslt_layout{type, rows, cols, ld};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout) {
  delete layout;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attr,
                                                       const void* buf, std::size_t size) {
  if (!layout) return CUBLAS_STATUS_NOT_INITIALIZED;
  bool ok = false;
  switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: ok = simt::cublas::read_attr(buf, size, &layout->batch); break;
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: ok = simt::cublas::read_attr(buf, size, &layout->stride); break;
    default: return simt::cublas::unsupported("cublasLtMatrixLayoutSetAttribute", "this attribute (column-major only)");
  }
  return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
}

inline cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  *pref = new simt_cublaslt_preference;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  delete pref;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                           cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
                                                           std::size_t size) {
  if (!pref) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (attr == CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES)
    return simt::cublas::read_attr(buf, size, &pref->workspace) ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_INVALID_VALUE;
  return CUBLAS_STATUS_SUCCESS;  // search modes change nothing here: there is one algorithm
}
// One algorithm: simtlab's host GEMM, needing no workspace.
inline cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                                                     cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                                     cublasLtMatrixLayout_t, cublasLtMatmulPreference_t, int requested,
                                                     cublasLtMatmulHeuristicResult_t* results, int* returned) {
  if (!handle || !desc || !results || !returned) return CUBLAS_STATUS_INVALID_VALUE;
  *returned = 0;
  if (requested < 1) return CUBLAS_STATUS_INVALID_VALUE;
  results[0] = cublasLtMatmulHeuristicResult_t{};
  results[0].state = CUBLAS_STATUS_SUCCESS;
  results[0].wavesCount = 1.0f;
  *returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}

inline cublasStatus_t cublasLtMatmul(cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha, const void* A,
                                     cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
                                     const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
                                     cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t*, void* /*workspace*/,
                                     std::size_t /*workspace_size*/, cudaStream_t stream) {
  const char* api = "cublasLtMatmul";
  if (!handle || !desc || !Adesc || !Bdesc || !Cdesc || !Ddesc) return CUBLAS_STATUS_INVALID_VALUE;
  simt::libs::ElemType ta, tb, tc, td;
  if (!simt::cublas::element(Adesc->type, &ta) || !simt::cublas::element(Bdesc->type, &tb) ||
      !simt::cublas::element(Cdesc->type, &tc) || !simt::cublas::element(Ddesc->type, &td))
    return simt::cublas::unsupported(api, "this data type (CUDA_R_32F, CUDA_R_16F and CUDA_R_16BF are)");
  if (ta != tb) return simt::cublas::unsupported(api, "A and B of different types");
  if (desc->scale != CUDA_R_32F) return simt::cublas::unsupported(api, "a scale type other than CUDA_R_32F");
  const bool ta_t = desc->transa != CUBLAS_OP_N;
  const int k = int(ta_t ? Adesc->rows : Adesc->cols);
  auto g = simt::cublas::call(api, desc->transa, desc->transb, int(Ddesc->rows), int(Ddesc->cols), k,
                              *static_cast<const float*>(alpha), *static_cast<const float*>(beta), Ddesc->batch);
  if (!simt::cublas::math_for(CUBLAS_DEFAULT_MATH, desc->compute, ta, &g.math))
    return simt::cublas::unsupported(api, "this compute type (CUBLAS_COMPUTE_32F and _32F_FAST_TF32 are)");
  switch (desc->epilogue) {
    case CUBLASLT_EPILOGUE_DEFAULT: g.epilogue = simt::libs::Epilogue::None; break;
    case CUBLASLT_EPILOGUE_BIAS: g.epilogue = simt::libs::Epilogue::Bias; break;
    case CUBLASLT_EPILOGUE_GELU: g.epilogue = simt::libs::Epilogue::Gelu; break;
    case CUBLASLT_EPILOGUE_GELU_BIAS: g.epilogue = simt::libs::Epilogue::GeluBias; break;
    default: return simt::cublas::unsupported(api, "this epilogue (DEFAULT, BIAS, GELU and GELU_BIAS are)");
  }
  if ((g.epilogue == simt::libs::Epilogue::Bias || g.epilogue == simt::libs::Epilogue::GeluBias) && !desc->bias)
    return simt::cublas::unsupported(api, "a BIAS epilogue without CUBLASLT_MATMUL_DESC_BIAS_POINTER");
  if (g.epilogue == simt::libs::Epilogue::Bias || g.epilogue == simt::libs::Epilogue::GeluBias) g.bias = desc->bias;
  g.a = {A, ta, Adesc->ld, Adesc->stride};
  g.b = {B, tb, Bdesc->ld, Bdesc->stride};
  g.c = {C, tc, Cdesc->ld, Cdesc->stride};
  g.d = {D, td, Ddesc->ld, Ddesc->stride};
  return simt::cublas::run(g, stream);
}
