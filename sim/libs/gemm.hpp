// simtlab's cuBLAS/cuBLASLt GEMMs: the product is computed on the host by Eigen
// (float accumulate), and the launch is recorded as one simulated launch whose
// counters are the closed form of a tiled GEMM (gemm_launch.cpp), so a 4096^3
// product takes seconds and is timed at the rate of the pipe cuBLAS would use.
// Called by sim/compiler/include/cublas_v2.h and cublasLt.h.
#pragma once
#include <cstddef>
#include <cstdint>

namespace simt::libs {

enum class ElemType { F32, F16, BF16 };
inline std::size_t elem_bytes(ElemType t) { return t == ElemType::F32 ? 4 : 2; }
// The pipe the product runs on: FP32 FFMA, TF32 tensor cores, or 16-bit tensor
// cores (fp16/bf16 inputs, fp32 accumulate).
enum class GemmMath { Fp32, Tf32, Tensor16 };
enum class Epilogue { None, Bias, Gelu, GeluBias };

// A column-major matrix: rows x cols stored with leading dimension ld; batch i
// starts stride elements after batch i-1.
struct MatrixArg {
  const void* ptr = nullptr;
  ElemType type = ElemType::F32;
  long long ld = 0;
  long long stride = 0;
};

struct GemmCall {
  const char* api = "cublasSgemm";  // the launch's name in reports
  bool trans_a = false, trans_b = false;
  int m = 0, n = 0, k = 0, batch = 1;
  float alpha = 1, beta = 0;
  MatrixArg a, b, c, d;  // D = alpha op(A) op(B) + beta C (C may alias D)
  GemmMath math = GemmMath::Fp32;
  Epilogue epilogue = Epilogue::None;
  const void* bias = nullptr;  // m elements of d's type (cuBLASLt epilogues)
  const void* stream = nullptr;  // the handle's (cublasSetStream) or cublasLtMatmul's: where the clock places it
};

// Returns a cublasStatus_t value: 0, or 7 (INVALID_VALUE) for a bad size or a
// matrix outside device memory, with a message naming the call on stderr.
int gemm(const GemmCall& call);

}  // namespace simt::libs
