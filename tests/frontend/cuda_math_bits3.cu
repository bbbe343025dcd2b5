// asinf, acosf, atan2f, cbrtf, rcbrtf, hypotf and the double exp, log, tanh in device
// code with the H200's bits (sim/math). One line per function with the device
// results' bits; a line of calls with constant arguments, which nvcc and simtlab fold;
// the double functions of a NaN; then the host's cbrtf (the C library's, as with nvcc).
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kN = 8;
constexpr int kF = 9, kD = 5, kFolded = 9;
__constant__ float kInputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};
__constant__ double kDoubles[kN] = {-3.5, -0.75, 0.1, 0.5, 1.0, 2.5, 7.25, 700.5};
__constant__ unsigned long long kNaN = 0x7ff0000000000001ull;

__global__ void math(float* out, double* dout, double* folded) {
  const int i = threadIdx.x;
  const float x = kInputs[i];
  const double d = kDoubles[i];
  const float r[kF] = {asinf(x * 0.125f), acosf(x * 0.125f), atan2f(x, 0.7f), atan2f(-1.5f, x), cbrtf(x),
                       rcbrtf(x),         hypotf(x, 2.5f),   std::cbrt(x),    std::atan2(x, -0.25f)};
  for (int f = 0; f < kF; ++f) out[f * kN + i] = r[f];
  const double s[kD] = {exp(d), log(fabs(d)), tanh(d), std::exp(-d), log(d)};
  for (int f = 0; f < kD; ++f) dout[f * kN + i] = s[f];
  if (i == 0) {
    folded[0] = asinf(0.3f);
    folded[1] = acosf(0.3f);
    folded[2] = atan2f(0.3f, 0.7f);
    folded[3] = cbrtf(0.3f);
    folded[4] = rcbrtf(0.3f);
    folded[5] = hypotf(0.3f, 0.7f);
    folded[6] = exp(0.3);
    folded[7] = log(0.3);
    folded[8] = tanh(0.3);
    double nan;
    std::memcpy(&nan, &kNaN, sizeof nan);
    folded[9] = exp(nan);
    folded[10] = log(nan);
    folded[11] = tanh(nan);
  }
}

unsigned bits(float f) {
  unsigned b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
unsigned long long bits(double f) {
  unsigned long long b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

int main() {
  const char* names[kF] = {"asinf(x/8)", "acosf(x/8)", "atan2f(x,0.7)", "atan2f(-1.5,x)", "cbrtf",
                           "rcbrtf",     "hypotf(x,2.5)", "std::cbrt",   "std::atan2(x,-0.25)"};
  const char* dnames[kD] = {"exp", "log(|x|)", "tanh", "std::exp(-x)", "log(x)"};
  float* o;
  double *dd, *fo;
  cudaMalloc(&o, kF * kN * sizeof(float));
  cudaMalloc(&dd, kD * kN * sizeof(double));
  cudaMalloc(&fo, 12 * sizeof(double));
  math<<<1, kN>>>(o, dd, fo);
  float h[kF * kN];
  double hd[kD * kN], hf[12];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, fo, sizeof hf, cudaMemcpyDeviceToHost);
  for (int f = 0; f < kF; ++f) {
    std::printf("device %s", names[f]);
    for (int i = 0; i < kN; ++i) std::printf(" %08x", bits(h[f * kN + i]));
    std::printf("\n");
  }
  for (int f = 0; f < kD; ++f) {
    std::printf("device %s", dnames[f]);
    for (int i = 0; i < kN; ++i) std::printf(" %016llx", bits(hd[f * kN + i]));
    std::printf("\n");
  }
  std::printf("folded");
  for (int f = 0; f < kFolded; ++f)
    f < 6 ? std::printf(" %08x", bits(static_cast<float>(hf[f]))) : std::printf(" %016llx", bits(hf[f]));
  std::printf("\nnan %016llx %016llx %016llx\n", bits(hf[9]), bits(hf[10]), bits(hf[11]));
  const float host_inputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};
  std::printf("host cbrtf");
  for (float x : host_inputs) std::printf(" %08x", bits(cbrtf(x)));
  std::printf("\n");
  return 0;
}
