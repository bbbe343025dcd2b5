// The course's HW4 kernels (llmsys_hw4 src/softmax_kernel.cu and src/layernorm_kernel.cu,
// with simtlab's solution between their markers) against CPU references.
//
// It is built beside the filled course sources (tests/course/hw4/fill_hw4.sh copies it
// into HW4_COPY/src), unchanged by either compiler:
//   simt exec HW4_COPY/src/hw4_driver.cu
//   nvcc --fmad=false HW4_COPY/src/hw4_driver.cu -lcublas -lcublasLt
// (tests/course/hw4/run_hw4.sh does the copying, filling and running). Each case plants inputs
// from a fixed seed, calls the course's extern "C" launcher, and compares every output
// with a double-precision reference: PASS when |out - ref| <= atol + rtol * |ref| for
// every element. It prints one line per output with the largest error and an FNV-1a
// digest of the output's bytes (equal digests: bit-identical outputs), and exits 1 if
// any output FAILs.
#include "softmax_kernel.cu"
#include "layernorm_kernel.cu"

#include "hw4_reference.h"

#include <cstdio>
#include <vector>

using lightseq::cuda::launch_attn_softmax;
using lightseq::cuda::launch_attn_softmax_bw;
using lightseq::cuda::launch_layernorm;
using lightseq::cuda::launch_layernorm_bw;

namespace {

// Tolerances. The kernels accumulate in float in another order than the reference and
// the GPU's __expf, __fdividef and rsqrtf are approximations (a few ulp); the
// tolerances are 10 to 1000 times the largest errors seen on the simulator
// (docs/course-hw4.md), with room for those, and far below what a wrong index or a
// missed term gives.
constexpr hw4::Tolerance kSoftmaxFw{1e-6, 1e-4};
constexpr hw4::Tolerance kSoftmaxBw{1e-6, 1e-4};
constexpr hw4::Tolerance kLayerNormFw{1e-5, 1e-4};
constexpr hw4::Tolerance kLayerNormStats{1e-6, 1e-5};
constexpr hw4::Tolerance kLayerNormBw{1e-4, 1e-4};

int failures = 0;

void report(const std::string& what, const std::vector<float>& out, const std::vector<double>& ref,
            hw4::Tolerance tol) {
  const hw4::Comparison c = hw4::compare(out, ref, tol);
  std::printf("%s %-48s max|err| %.2e at %zu (tol %.0e + %.0e|ref|)  digest %016llx\n", c.ok ? "PASS" : "FAIL",
              what.c_str(), c.max_abs_err, c.worst_index, tol.atol, tol.rtol,
              static_cast<unsigned long long>(hw4::fnv1a(out)));
  if (!c.ok) ++failures;
}

// Softmax forward: scores in [-4, 4), padding tokens (mask -1e8) at the end of each
// sequence of the batch, the first `valid` columns unmasked.
void softmax_forward(int batch, int nhead, int from_len, int to_len, bool mask_future, uint64_t seed) {
  hw4::Rng rng(seed);
  std::vector<float> inp = rng.fill(size_t(batch) * nhead * from_len * to_len, -4.f, 4.f);
  std::vector<float> mask(size_t(batch) * to_len, 0.f);
  for (int b = 0; b < batch; ++b) {
    const int valid = to_len - int(rng.next() % (to_len / 4 + 1));  // at least 3/4 of the columns
    for (int c = valid; c < to_len; ++c) mask[size_t(b) * to_len + c] = -1e8f;
  }
  const std::vector<double> ref = hw4::softmax_forward(inp, mask, batch, nhead, from_len, to_len, mask_future);
  launch_attn_softmax(inp.data(), mask.data(), batch, nhead, from_len, to_len, mask_future, nullptr);
  char what[96];
  std::snprintf(what, sizeof what, "softmax_fw  b%d h%d from %d to %d%s", batch, nhead, from_len, to_len,
                mask_future ? " future" : "");
  report(what, inp, ref, kSoftmaxFw);
}

// Softmax backward: soft_inp is a softmax output (rows sum to 1), grad in [-1, 1).
void softmax_backward(int rows, int len, uint64_t seed) {
  hw4::Rng rng(seed);
  std::vector<float> scores = rng.fill(size_t(rows) * len, -4.f, 4.f);
  std::vector<float> soft = hw4::softmax_rows(scores, rows, len);
  std::vector<float> grad = rng.fill(size_t(rows) * len, -1.f, 1.f);
  const std::vector<double> ref = hw4::softmax_backward(grad, soft, rows, len);
  launch_attn_softmax_bw(grad.data(), soft.data(), rows, len, nullptr);
  char what[96];
  std::snprintf(what, sizeof what, "softmax_bw  rows %d len %d", rows, len);
  report(what, grad, ref, kSoftmaxBw);
}

// LayerNorm forward: x in [-1, 1) plus a per-row offset, gamma in [0.5, 1.5), beta in [-1, 1).
void layernorm_forward(int rows, int hidden, uint64_t seed) {
  hw4::Rng rng(seed);
  std::vector<float> x = rng.fill(size_t(rows) * hidden, -1.f, 1.f);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < hidden; ++c) x[size_t(r) * hidden + c] += 0.25f * float(r % 5);
  std::vector<float> gamma = rng.fill(hidden, 0.5f, 1.5f), beta = rng.fill(hidden, -1.f, 1.f);
  std::vector<float> out(x.size()), vars(rows), means(rows);
  const hw4::LayerNormForward ref = hw4::layernorm_forward(x, gamma, beta, rows, hidden);
  launch_layernorm(out.data(), vars.data(), means.data(), x.data(), gamma.data(), beta.data(), rows, hidden,
                   nullptr);
  char what[96];
  std::snprintf(what, sizeof what, "layernorm_fw rows %d hidden %d: ln_res", rows, hidden);
  report(what, out, ref.out, kLayerNormFw);
  std::snprintf(what, sizeof what, "layernorm_fw rows %d hidden %d: vars", rows, hidden);
  report(what, vars, ref.vars, kLayerNormStats);
  std::snprintf(what, sizeof what, "layernorm_fw rows %d hidden %d: means", rows, hidden);
  report(what, means, ref.means, kLayerNormStats);
}

// LayerNorm backward, as the course's test calls it: means and (plain) variances of
// the input computed on the host, out_grad in [-1, 1); two streams as in LightSeq.
void layernorm_backward(int rows, int hidden, uint64_t seed, cudaStream_t s1, cudaStream_t s2) {
  hw4::Rng rng(seed);
  std::vector<float> x = rng.fill(size_t(rows) * hidden, -1.f, 1.f);
  std::vector<float> dout = rng.fill(x.size(), -1.f, 1.f);
  std::vector<float> gamma = rng.fill(hidden, 0.5f, 1.5f), beta = rng.fill(hidden, -1.f, 1.f);
  std::vector<float> means(rows), vars(rows);
  hw4::row_statistics(x, rows, hidden, means, vars);
  std::vector<float> dgamma(hidden), dbeta(hidden), dinp(x.size());
  const hw4::LayerNormBackward ref = hw4::layernorm_backward(dout, x, gamma, means, vars, rows, hidden);
  launch_layernorm_bw(dgamma.data(), dbeta.data(), dinp.data(), dout.data(), x.data(), gamma.data(), beta.data(),
                      vars.data(), means.data(), rows, hidden, s1, s2);
  char what[96];
  std::snprintf(what, sizeof what, "layernorm_bw rows %d hidden %d: gamma_grad", rows, hidden);
  report(what, dgamma, ref.dgamma, kLayerNormBw);
  std::snprintf(what, sizeof what, "layernorm_bw rows %d hidden %d: betta_grad", rows, hidden);
  report(what, dbeta, ref.dbeta, kLayerNormBw);
  std::snprintf(what, sizeof what, "layernorm_bw rows %d hidden %d: inp_grad", rows, hidden);
  report(what, dinp, ref.dinp, kLayerNormBw);
}

}  // namespace

int main() {
  // Softmax forward: to_len <= 32 and <= 64 run ker_attn_softmax_lt32 (the course's
  // warp kernel), longer rows ker_attn_softmax (the solution's block kernel) with 64 to
  // 512 threads; the course's tests draw batch x seq <= 1024 tokens, seq <= 512, 8 heads.
  softmax_forward(2, 8, 16, 20, false, 1);
  softmax_forward(2, 8, 24, 50, false, 2);
  softmax_forward(2, 8, 40, 100, false, 3);
  softmax_forward(1, 8, 64, 200, false, 4);
  softmax_forward(1, 8, 32, 333, false, 5);
  softmax_forward(1, 4, 16, 1000, false, 6);
  softmax_forward(2, 8, 30, 30, true, 7);
  softmax_forward(1, 8, 96, 96, true, 8);
  // Softmax backward: ITERATIONS 1, 2, 4, 8, 12, 16, 24, 32 (rows are batch x heads x from_len).
  const int bw_cases[][2] = {{256, 20}, {128, 50}, {320, 100}, {512, 200}, {256, 333}, {128, 500}, {64, 700}, {32, 1000}};
  for (int i = 0; i < 8; ++i) softmax_backward(bw_cases[i][0], bw_cases[i][1], 20 + i);
  // LayerNorm: hidden 256..1024 (and a ragged 200: 50 float4s on 64 threads; 4096: 1024 threads).
  const int ln_cases[][2] = {{64, 256}, {40, 512}, {16, 1024}, {24, 200}, {128, 768}, {8, 4096}};
  for (int i = 0; i < 6; ++i) layernorm_forward(ln_cases[i][0], ln_cases[i][1], 40 + i);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  for (int i = 0; i < 6; ++i) layernorm_backward(ln_cases[i][0], ln_cases[i][1], 60 + i, s1, s2);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  std::printf("%s: %d output(s) failed\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
