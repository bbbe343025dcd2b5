// cuBLAS and cuBLASLt GEMMs as course code and llm.c call them: cublasSgemm
// (llm.c's transposed-weight form), cublasGemmEx in fp32 / fp16 / bf16 / TF32,
// the strided-batched forms, and cublasLtMatmul with the BIAS and GELU_BIAS
// epilogues. Each result is compared with a double-precision CPU product of the
// same (rounded) inputs and must lie within a stated tolerance; cuBLAS's
// reduction order is not published, so no result is claimed bit-exact. Each
// output is also written to gemm_NAME.bin to compare simtlab's with the GPU's.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

// 16-bit storage, converted here (round to nearest even), so the file needs no
// half-precision header.
static std::uint16_t f32_to_f16(float f) {
  std::uint32_t x; std::memcpy(&x, &f, 4);
  std::uint32_t sign = (x >> 16) & 0x8000u; int e = int((x >> 23) & 0xff) - 127 + 15; std::uint32_t m = x & 0x7fffffu;
  if (e >= 31) return std::uint16_t(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10) return std::uint16_t(sign);
    m |= 0x800000u; int shift = 14 - e; std::uint32_t h = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return std::uint16_t(sign | h);
  }
  std::uint32_t h = (std::uint32_t(e) << 10) | (m >> 13), rem = m & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;
  return std::uint16_t(sign | h);
}
static float f16_to_f32(std::uint16_t h) {
  std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16; int e = (h >> 10) & 0x1f; std::uint32_t m = h & 0x3ffu;
  if (e == 0) { float v = std::ldexp(float(m), -24); return sign ? -v : v; }
  std::uint32_t x = sign | (std::uint32_t(e == 31 ? 255 : e - 15 + 127) << 23) | (m << 13);
  float f; std::memcpy(&f, &x, 4); return f;
}
static std::uint16_t f32_to_bf16(float f) {
  std::uint32_t x; std::memcpy(&x, &f, 4);
  return std::uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
static float bf16_to_f32(std::uint16_t b) { std::uint32_t x = std::uint32_t(b) << 16; float f; std::memcpy(&f, &x, 4); return f; }

static int failures = 0;
// Column-major C (m x n) = op(A) op(B); op = transpose when t.
static std::vector<double> reference(bool ta, bool tb, int m, int n, int k, const std::vector<float>& a, int lda,
                                     const std::vector<float>& b, int ldb, size_t a_off = 0, size_t b_off = 0) {
  std::vector<double> c(size_t(m) * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int p = 0; p < k; ++p) {
        double av = ta ? a[a_off + size_t(i) * lda + p] : a[a_off + size_t(p) * lda + i];
        double bv = tb ? b[b_off + size_t(p) * ldb + j] : b[b_off + size_t(j) * ldb + p];
        s += av * bv;
      }
      c[size_t(j) * m + i] = s;
    }
  return c;
}
static void verdict(const std::string& name, const std::vector<float>& got, const std::vector<double>& want, double tol) {
  double worst = 0, scale = 0;
  for (double w : want) scale = std::fmax(scale, std::fabs(w));
  for (size_t i = 0; i < got.size(); ++i) worst = std::fmax(worst, std::fabs(got[i] - want[i]) / scale);
  const bool ok = worst <= tol;
  failures += !ok;
  printf("%-34s max |err|/max|ref| = %.3g (tolerance %.0e) %s\n", name.c_str(), worst, tol, ok ? "ok" : "MISMATCH");
  FILE* f = fopen(("gemm_" + name + ".bin").c_str(), "wb");
  if (f) { fwrite(got.data(), 4, got.size(), f); fclose(f); }
}
template <class T> static T* device(const std::vector<T>& h) {
  T* d; cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <class T> static std::vector<T> host(const T* d, size_t n) {
  std::vector<T> h(n); cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost); return h;
}
static std::vector<float> planted(size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (auto& x : v) { seed = seed * 1664525u + 1013904223u; x = float(int(seed >> 20) - 2048) / 1024.0f; }
  return v;
}

int main() {
  const int M = 96, N = 80, K = 64;  // C is M x N, column-major
  cublasHandle_t h; cublasCreate(&h);
  const float one = 1.0f, zero = 0.0f;

  // llm.c's matmul_forward: out(OC x BT) = weight^T(OC x C) * inp(C x BT).
  auto w = planted(size_t(K) * M, 1), x = planted(size_t(K) * N, 2);
  float *dw = device(w), *dx = device(x), *dc = device(std::vector<float>(size_t(M) * N, 0.0f));
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, dw, K, dx, K, &zero, dc, M);
  auto ref = reference(true, false, M, N, K, w, K, x, K);
  verdict("Sgemm_TN", host(dc, size_t(M) * N), ref, 1e-6);

  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, dw, CUDA_R_32F, K, dx, CUDA_R_32F, K, &zero, dc, CUDA_R_32F, M,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  verdict("GemmEx_32F", host(dc, size_t(M) * N), ref, 1e-6);
  cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, dw, CUDA_R_32F, K, dx, CUDA_R_32F, K, &zero, dc, CUDA_R_32F, M,
               CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
  verdict("GemmEx_32F_FAST_TF32", host(dc, size_t(M) * N), ref, 2e-3);

  // fp16 and bf16 inputs and outputs, fp32 accumulate: the reference uses the
  // rounded inputs; the tolerance covers the output's rounding.
  for (int bf = 0; bf < 2; ++bf) {
    std::vector<std::uint16_t> w16(w.size()), x16(x.size());
    std::vector<float> wr(w.size()), xr(x.size());
    for (size_t i = 0; i < w.size(); ++i) { w16[i] = bf ? f32_to_bf16(w[i]) : f32_to_f16(w[i]); wr[i] = bf ? bf16_to_f32(w16[i]) : f16_to_f32(w16[i]); }
    for (size_t i = 0; i < x.size(); ++i) { x16[i] = bf ? f32_to_bf16(x[i]) : f32_to_f16(x[i]); xr[i] = bf ? bf16_to_f32(x16[i]) : f16_to_f32(x16[i]); }
    auto *dw16 = device(w16), *dx16 = device(x16), *dc16 = device(std::vector<std::uint16_t>(size_t(M) * N, 0));
    const cudaDataType t = bf ? CUDA_R_16BF : CUDA_R_16F;
    cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, M, N, K, &one, dw16, t, K, dx16, t, K, &zero, dc16, t, M, CUBLAS_COMPUTE_32F,
                 CUBLAS_GEMM_DEFAULT);
    auto c16 = host(dc16, size_t(M) * N);
    std::vector<float> c(c16.size());
    for (size_t i = 0; i < c.size(); ++i) c[i] = bf ? bf16_to_f32(c16[i]) : f16_to_f32(c16[i]);
    verdict(bf ? "GemmEx_16BF" : "GemmEx_16F", c, reference(true, false, M, N, K, wr, K, xr, K), bf ? 8e-3 : 1e-3);
    cudaFree(dw16); cudaFree(dx16); cudaFree(dc16);
  }

  // Strided batched (attention's per-head products): 3 batches of NN products.
  const int batches = 3;
  auto a = planted(size_t(M) * K * batches, 3), b = planted(size_t(K) * N * batches, 4);
  float *da = device(a), *db = device(b), *dcb = device(std::vector<float>(size_t(M) * N * batches, 0.0f));
  const float half_alpha = 0.5f;
  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &half_alpha, da, M, (long long)M * K, db, K,
                            (long long)K * N, &zero, dcb, M, (long long)M * N, batches);
  std::vector<double> refb;
  for (int i = 0; i < batches; ++i) {
    auto r = reference(false, false, M, N, K, a, M, b, K, size_t(i) * M * K, size_t(i) * K * N);
    for (double v : r) refb.push_back(0.5 * v);
  }
  verdict("SgemmStridedBatched", host(dcb, refb.size()), refb, 1e-6);
  cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &half_alpha, da, CUDA_R_32F, M, (long long)M * K, db,
                             CUDA_R_32F, K, (long long)K * N, &zero, dcb, CUDA_R_32F, M, (long long)M * N, batches,
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  verdict("GemmStridedBatchedEx", host(dcb, refb.size()), refb, 1e-6);

  // cublasLt, as llm.c's matmul_forward_cublaslt: bias, then bias + GELU.
  cublasLtHandle_t lt; cublasLtCreate(&lt);
  auto bias = planted(M, 5);
  float* dbias = device(bias);
  void* workspace; const size_t ws_size = 32 << 20; cudaMalloc(&workspace, ws_size);
  for (int gelu = 0; gelu < 2; ++gelu) {
    cublasLtMatmulDesc_t desc; cublasLtMatmulPreference_t pref;
    cublasLtMatrixLayout_t wl, xl, ol, bl;
    cublasOperation_t tr = CUBLAS_OP_T, nt = CUBLAS_OP_N;
    cublasLtEpilogue_t epi = gelu ? CUBLASLT_EPILOGUE_GELU_BIAS : CUBLASLT_EPILOGUE_BIAS;
    cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &tr, sizeof(tr));
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &nt, sizeof(nt));
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
    cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias, sizeof(dbias));
    cublasLtMatrixLayoutCreate(&wl, CUDA_R_32F, K, M, K);
    cublasLtMatrixLayoutCreate(&xl, CUDA_R_32F, K, N, K);
    cublasLtMatrixLayoutCreate(&ol, CUDA_R_32F, M, N, M);
    cublasLtMatrixLayoutCreate(&bl, CUDA_R_32F, M, 1, M);
    cublasLtMatmulPreferenceCreate(&pref);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_size, sizeof(ws_size));
    cublasLtMatmulHeuristicResult_t heuristic; int found = 0;
    cublasLtMatmulAlgoGetHeuristic(lt, desc, wl, xl, ol, ol, pref, 1, &heuristic, &found);
    if (found == 0) { printf("cublasLt: no algorithm\n"); return 1; }
    cublasLtMatmul(lt, desc, &one, dw, wl, dx, xl, &zero, dc, ol, dc, ol, &heuristic.algo, workspace, ws_size, 0);
    std::vector<double> want = ref;
    for (int j = 0; j < N; ++j)
      for (int i = 0; i < M; ++i) {
        double v = want[size_t(j) * M + i] + bias[i];
        if (gelu) v = 0.5 * v * (1.0 + std::tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
        want[size_t(j) * M + i] = v;
      }
    verdict(gelu ? "LtMatmul_GELU_BIAS" : "LtMatmul_BIAS", host(dc, size_t(M) * N), want, gelu ? 1e-4 : 1e-6);
    cublasLtMatmulPreferenceDestroy(pref); cublasLtMatmulDescDestroy(desc);
    cublasLtMatrixLayoutDestroy(wl); cublasLtMatrixLayoutDestroy(xl); cublasLtMatrixLayoutDestroy(ol); cublasLtMatrixLayoutDestroy(bl);
  }
  cublasLtDestroy(lt); cublasDestroy(h);
  printf("%s\n", failures ? "cuBLAS: FAILED" : "cuBLAS: every product within its tolerance");
  return failures ? 1 : 0;
}
