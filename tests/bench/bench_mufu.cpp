// How long one call of CUDA's math functions takes in the simulator, with arguments
// scattered as a softmax's are (every call reads a different part of the MUFU
// tables). Prints ns per call; run it before and after a change to the tables:
//   build/tests/bench_mufu
#include <chrono>
#include <cstdio>
#include <random>
#include <vector>

extern "C" {
float __simt_cuda_expf(float);
float __simt_cuda_fast_expf(float);
float __simt_cuda_rsqrtf(float);
float __simt_cuda_logf(float);
}

namespace {

template <class F>
void time_calls(const char* name, F f, float lo, float hi) {
  std::vector<float> x(std::size_t(1) << 22);
  std::mt19937 g(1);
  std::uniform_real_distribution<float> u(lo, hi);
  for (float& v : x) v = u(g);
  volatile float sink = f(x[0]);  // the first call decodes the table
  auto t0 = std::chrono::steady_clock::now();
  float s = 0;
  for (int round = 0; round < 4; ++round)
    for (float v : x) s += f(v);
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                    (4.0 * double(x.size()));
  sink = s;
  (void)sink;
  std::printf("%-8s %6.1f ns per call   (2^22 arguments in [%g, %g], 4 rounds)\n", name, ns, lo, hi);
}

}  // namespace

int main() {
  time_calls("expf", __simt_cuda_expf, -20.0f, 0.0f);
  time_calls("__expf", __simt_cuda_fast_expf, -20.0f, 0.0f);
  time_calls("rsqrtf", __simt_cuda_rsqrtf, 1e-3f, 1e3f);
  time_calls("logf", __simt_cuda_logf, 1e-3f, 1e3f);
}
