// The GPU's NaN (0x7fffffff) where a NaN is made inside loops the optimizer unrolls
// and keeps in registers: a dot product over global memory, a tiled one over shared
// memory, an fmaf chain, and a NaN operand carried on. Each select that gives the GPU's
// bits must survive code generation (pass/canonical_nan.cpp); x86 alone would give
// 0xffc00000 for inf * 0 and carry that on.
#include <cmath>
#include <cstdio>
#include <cstring>

constexpr int kN = 64;

__global__ void loop_nans(const float* a, const float* b, float* out) {
  __shared__ float as[kN], bs[kN];
  const int i = threadIdx.x;
  as[i] = a[i];
  bs[i] = b[i];
  __syncthreads();
  if (i != 0) return;
  float global_dot = 0.0f, shared_dot = 0.0f, chain = 1.0f;
  for (int k = 0; k < kN; ++k) global_dot += a[k] * b[k];
  float carried = global_dot;  // a NaN operand from here on
#pragma unroll 16
  for (int k = 0; k < kN; ++k) shared_dot += as[k] * bs[k];
  for (int k = 0; k < kN; ++k) chain = fmaf(chain, as[k], -bs[k] * bs[k]);  // inf, then inf - inf
  for (int k = 0; k < kN; ++k) carried = carried * 0.5f + a[k] * 2.0f;
  out[0] = global_dot;
  out[1] = shared_dot;
  out[2] = chain;
  out[3] = carried;
}

int main() {
  float a[kN], b[kN];
  for (int k = 0; k < kN; ++k) a[k] = 1.0f + k, b[k] = 0.5f;
  a[37] = INFINITY;  // inf * 0 makes the dots' NaN
  b[37] = 0.0f;
  b[38] = INFINITY;  // the fmaf chain's inf * 39 - inf
  float *da, *db, *dout;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dout, 4 * sizeof(float));
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  loop_nans<<<1, kN>>>(da, db, dout);
  float r[4];
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  std::printf("device");
  for (float v : r) {
    unsigned bits;
    std::memcpy(&bits, &v, 4);
    std::printf(" %08x", bits);
  }
  std::printf("\n");
  return 0;
}
