// For `simt validate --max-ulp`: single-precision functions that simtlab computes with
// the C library (correct to < 1 ulp) rather than with CUDA's instruction sequences
// (docs/validation/h200-mufu.md, "Not covered yet"), so the simulator's memory differs
// from the H200's by a few ulps (normcdff, erfinvf and the rest of that list are not in
// simtlab's headers yet); plus sqrtf, bit-identical on both (IEEE), as the
// control. One launch per function, each into its own allocation, over inputs on
// domains where both results are accurate (away from lgamma's zeros and tgamma's
// overflow), so the distance measured is the implementations' and not a cancellation.
//
//   GPU half:   .gpu-run/validate/run.sh (validate_gpu.sh on this file)
//   here:       simt validate tests/cuda/ulp_probe.cu --gpu-results DIR --max-ulp K
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kN = 1 << 14;

// x in [lo, hi], evenly spaced.
__device__ float input(int i, float lo, float hi) { return lo + (hi - lo) * (static_cast<float>(i) / (kN - 1)); }

__global__ void probe_sqrtf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = sqrtf(input(i, 0.0f, 1000.0f));
}
__global__ void probe_lgammaf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = lgammaf(input(i, 3.0f, 30.0f));
}
__global__ void probe_tgammaf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = tgammaf(input(i, 0.5f, 30.0f));
}
__global__ void probe_asinhf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = asinhf(input(i, -100.0f, 100.0f));
}
__global__ void probe_acoshf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = acoshf(input(i, 1.0f, 1000.0f));
}
__global__ void probe_atanhf(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN) out[i] = atanhf(input(i, -0.99f, 0.99f));
}
constexpr int kProbes = 6;
constexpr int kBlocks = (kN + 255) / 256;

int main() {
  const char* names[kProbes] = {"sqrtf", "lgammaf", "tgammaf", "asinhf", "acoshf", "atanhf"};
  float* out[kProbes] = {};
  for (float*& o : out) {  // allocations #1..#6, one per launch; zeroed, so untouched ones compare equal
    cudaMalloc(&o, kN * sizeof(float));
    cudaMemset(o, 0, kN * sizeof(float));
  }
  probe_sqrtf<<<kBlocks, 256>>>(out[0]);
  probe_lgammaf<<<kBlocks, 256>>>(out[1]);
  probe_tgammaf<<<kBlocks, 256>>>(out[2]);
  probe_asinhf<<<kBlocks, 256>>>(out[3]);
  probe_acoshf<<<kBlocks, 256>>>(out[4]);
  probe_atanhf<<<kBlocks, 256>>>(out[5]);
  std::vector<float> host(kN);
  for (int p = 0; p < kProbes; ++p) {
    cudaMemcpy(host.data(), out[p], kN * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (float v : host) sum += v;
    std::printf("%-8s sum %.9g  [0] %.9g  [%d] %.9g\n", names[p], sum, host[0], kN - 1, host[kN - 1]);
    cudaFree(out[p]);
  }
  return 0;
}
