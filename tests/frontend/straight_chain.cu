// Chains outside loops (sim/compiler/pass/carried_chain.cpp, straight_chain_tenths):
// the longest path of dependent operations through the code no loop holds, at the
// H200's measured latencies (FADD/FMUL 4.5 clocks), once per warp, summed over warps.
#include <cstdio>

// 128 dependent FMUL/FADD (a fully unrolled loop): 128 x 4.5 clocks and the few
// integer steps of the index, a warp.
template <int N>
__global__ void unrolled(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i];
#pragma unroll
  for (int k = 0; k < N; ++k) a = a * 0.999f + 0.5f;
  out[i] = a;
}

// The same 128 operations on 64 independent values: each chain is 2 deep.
__global__ void independent(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a[64];
#pragma unroll
  for (int k = 0; k < 64; ++k) a[k] = in[i] * float(k) + 0.5f;
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < 64; k += 16) s = fmaxf(s, a[k]);
  out[i] = s;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 256 * sizeof(float));
  cudaMalloc(&out, 256 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float));
  unrolled<64><<<2, 128>>>(in, out);
  independent<<<1, 64>>>(in, out);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
