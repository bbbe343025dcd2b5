// The GPU has one single-precision NaN, 0x7fffffff, whatever operation makes it; x86
// makes 0xffc00000 for an invalid operation. Device code gets the GPU's bits; host code
// keeps the CPU's, as with nvcc.
#include <cmath>
#include <cstdio>
#include <cstring>

__global__ void nans(const float* in, float* out) {
  const float zero = in[0], inf = in[1], minus = in[2];
  out[0] = zero / zero;         // 0/0
  out[1] = inf - inf;           // inf - inf
  out[2] = sqrtf(minus);        // sqrt(-1)
  out[3] = fmaf(inf, zero, 1);  // inf * 0 + 1
  out[4] = out[0] * 2.0f;       // a NaN operand
  out[5] = log1pf(-3.5f + zero);
  out[6] = logf(minus);
}

unsigned bits(float f) {
  unsigned b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

int main() {
  const float h[3] = {0.0f, INFINITY, -1.0f};
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 7 * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  nans<<<1, 1>>>(in, out);
  float r[7];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("device");
  for (float v : r) std::printf(" %08x", bits(v));
  volatile float z = 0.0f;
  std::printf("\nhost 0/0 %08x\n", bits(z / z));
  return 0;
}
