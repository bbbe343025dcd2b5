// A launcher that allocates a scratch buffer on every call, zeroes it, accumulates into
// it with atomics while adding into its output in place, copies the scratch out and
// frees it (the pattern of llm.c's layernorm_backward kernel 2). Nothing repeats
// exactly: the output grows every call. The repeats are deferred
// (sim/shortcuts/deferred_launches.hpp) and, since the program only reads the result at the
// end, run then:
//   - the freed scratch waits for the deferred launches that use it, and the next
//     call's cudaMalloc of the same size takes it over instead of making them run;
//   - the next call's cudaMemset of it joins the queue behind them.
// The output must be what running every launch when made gives (--no-skip-repeats).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void accumulate(float* out, float* scratch, const float* in, int n, int bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] += in[i];
    atomicAdd(&scratch[i % bins], in[i]);
  }
}

__global__ void copy_bins(float* bins_out, const float* scratch, int bins) {
  for (int i = threadIdx.x; i < bins; i += blockDim.x) bins_out[i] += scratch[i];
}

void call(float* out, float* bins_out, const float* in, int n, int bins, void** first) {
  float* scratch;
  cudaMalloc(&scratch, bins * sizeof(float));
  cudaMemset(scratch, 0, bins * sizeof(float));
  accumulate<<<(n + 255) / 256, 256>>>(out, scratch, in, n, bins);
  copy_bins<<<1, 128>>>(bins_out, scratch, bins);
  if (!*first) *first = scratch;
  if (scratch != *first) std::printf("scratch moved\n");
  cudaFree(scratch);
}

int main() {
  const int n = 8192, bins = 100;
  static float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i % 13);
  float *in, *out, *bins_out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&bins_out, bins * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  cudaMemset(bins_out, 0, bins * sizeof(float));
  void* first = nullptr;
  for (int c = 0; c < 10; ++c) call(out, bins_out, in, n, bins, &first);  // launches 1-20
  static float o[n], b[bins];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(b, bins_out, sizeof b, cudaMemcpyDeviceToHost);
  double so = 0, sb = 0;
  for (int i = 0; i < n; ++i) so += o[i];
  for (int i = 0; i < bins; ++i) sb += b[i];
  std::printf("out %.1f bins %.1f out[14] %.1f\n", so, sb, o[14]);
  return 0;
}
