// CUDA's math functions in device code return the H200's bits (sim/math); the same
// names in host code stay the C library's, as with nvcc. Prints one line per
// function: the device results' bits, then the host's expf, logf and tanhf.
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kN = 8;
__constant__ float kInputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 42.0f};

__global__ void math(float* out) {
  const int i = threadIdx.x;
  const float x = kInputs[i];
  out[0 * kN + i] = expf(x);
  out[1 * kN + i] = __expf(x);
  out[2 * kN + i] = exp2f(x);
  out[3 * kN + i] = tanhf(x);
  out[4 * kN + i] = logf(fabsf(x));
  out[5 * kN + i] = rsqrtf(fabsf(x));
  out[6 * kN + i] = __fdividef(1.0f, x);
  out[7 * kN + i] = std::exp(-x);  // std::exp(float) is expf too (of -x: nvcc would merge two expf(x))
}

// nvcc folds a function of constants to the correctly rounded value, not MUFU's:
// __log2f(1.1f) is 0x3e0ccdbb where MUFU.LG2 of 1.1 gives 0x3e0ccdc2.
__global__ void folded(const float* x, float* out) {
  out[0] = __log2f(1.1f);
  out[1] = __powf(1.7f, x[0]);  // __log2f(1.7f) folded, then MUFU.EX2 of x * log2(1.7)
  out[2] = __log2f(x[1]);       // 1.1 from memory: MUFU.LG2
}

unsigned bits(float f) {
  unsigned b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

int main() {
  const char* names[8] = {"expf", "__expf", "exp2f", "tanhf", "logf", "rsqrtf", "__fdividef", "std::exp"};
  float* d;
  cudaMalloc(&d, 8 * kN * sizeof(float));
  math<<<1, kN>>>(d);
  float h[8 * kN];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int f = 0; f < 8; ++f) {
    std::printf("device %s", names[f]);
    for (int i = 0; i < kN; ++i) std::printf(" %08x", bits(h[f * kN + i]));
    std::printf("\n");
  }
  const float fold_in[2] = {5.97e-8f, 1.1f};
  float* fx;
  cudaMalloc(&fx, sizeof fold_in);
  cudaMemcpy(fx, fold_in, sizeof fold_in, cudaMemcpyHostToDevice);
  folded<<<1, 1>>>(fx, d);
  float f[3];
  cudaMemcpy(f, d, sizeof f, cudaMemcpyDeviceToHost);
  std::printf("folded %08x %08x %08x\n", bits(f[0]), bits(f[1]), bits(f[2]));
  const float host_inputs[kN] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 42.0f};
  std::printf("host expf");
  for (float x : host_inputs) std::printf(" %08x", bits(expf(x)));
  std::printf("\n");
  return 0;
}
