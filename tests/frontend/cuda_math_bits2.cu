// More of CUDA's math functions in device code with the H200's bits (sim/math):
// sinf … powf. Prints one line per function with the device results' bits, then
// the host's sinf (the C library's, as with nvcc). 123456 takes sinf's Payne-Hanek
// reduction.
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kN = 8;
constexpr int kF = 19;
__constant__ float kInputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};

__global__ void math(float* out) {
  const int i = threadIdx.x;
  const float x = kInputs[i];
  float s, c;
  sincosf(x, &s, &c);
  const float r[kF] = {sinf(x),        cosf(x),          s,           c,           tanf(x),
                       coshf(x),       sinhf(x),         erff(x),     erfcf(x),    log2f(fabsf(x)),
                       log10f(fabsf(x)), log1pf(x),      expm1f(x),   exp10f(x),   atanf(x),
                       powf(fabsf(x), 2.5f), powf(2.5f, x), std::sin(x), std::pow(x, 3.0f)};
  for (int f = 0; f < kF; ++f) out[f * kN + i] = r[f];
}

unsigned bits(float f) {
  unsigned b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

int main() {
  const char* names[kF] = {"sinf",   "cosf",   "sincosf.sin", "sincosf.cos", "tanf",       "coshf",     "sinhf",
                           "erff",   "erfcf",  "log2f",       "log10f",      "log1pf",     "expm1f",    "exp10f",
                           "atanf",  "powf(|x|,2.5)", "powf(2.5,x)", "std::sin", "std::pow(x,3)"};
  float* d;
  cudaMalloc(&d, kF * kN * sizeof(float));
  math<<<1, kN>>>(d);
  float h[kF * kN];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int f = 0; f < kF; ++f) {
    std::printf("device %s", names[f]);
    for (int i = 0; i < kN; ++i) std::printf(" %08x", bits(h[f * kN + i]));
    std::printf("\n");
  }
  const float host_inputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};
  std::printf("host sinf");
  for (float x : host_inputs) std::printf(" %08x", bits(sinf(x)));
  std::printf("\n");
  return 0;
}
