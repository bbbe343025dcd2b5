// A host function converting halves and bfloat16s in a loop over a std::vector (the
// conversions are __host__ __device__ in CUDA): it links and runs, and only the
// kernel's conversions are counted (one HADD per widening, docs/counters.md).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <vector>

__global__ void widen(const __half* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(in[i]);
}

static std::vector<__half> to_halves(const std::vector<float>& v) {
  std::vector<__half> h;
  for (float x : v) h.push_back(__float2half(x));
  return h;
}

static float host_sum(const std::vector<__half>& h) {
  float s = 0;
  for (const __half& x : h) s += __half2float(x);
  return s;
}

int main() {
  const int n = 64;
  std::vector<float> f(n);
  for (int i = 0; i < n; ++i) f[i] = 0.25f * float(i) + 1.0f / 3.0f;  // 1/3 rounds in half
  const std::vector<__half> h = to_halves(f);
  std::vector<__nv_bfloat16> b;
  for (float x : f) b.push_back(__float2bfloat16(x));
  float bsum = 0;
  for (const __nv_bfloat16& x : b) bsum += __bfloat162float(x);
  printf("host: half %.6f bf16 %.6f first %.8f %.8f\n", host_sum(h), bsum, __half2float(h[0]),
         __bfloat162float(b[0]));

  __half* din;
  float* dout;
  cudaMalloc(&din, n * sizeof(__half));
  cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, h.data(), n * sizeof(__half), cudaMemcpyHostToDevice);
  widen<<<2, 32>>>(din, dout, n);
  std::vector<float> back(n);
  cudaMemcpy(back.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  float dsum = 0;
  for (float x : back) dsum += x;
  printf("device: half %.6f\n", dsum);
  cudaFree(din);
  cudaFree(dout);
  return 0;
}
