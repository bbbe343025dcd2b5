// Threads that loop over many thousands of loads without a barrier (llm.c's
// softmax_autoregressive_backward_kernel1 does 25 million per thread). A warp's
// accesses are logged until the next barrier; past WarpLog::kRowLimit rows the lanes
// wait, the log is counted and checked, and they go on. The counters stay exact,
// a race across the cut is still found, and memory stays bounded: the program
// prints its own peak resident size.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

// Convergent: every lane the same trip count, one coalesced load per iteration.
__global__ void stream_sum(const float* in, float* out, int iterations) {
  float s = 0;
  for (int i = 0; i < iterations; ++i) s += in[(i % 1024) * blockDim.x + threadIdx.x];
  out[threadIdx.x] = s;
}

// Divergent: lane l runs base + 100 l iterations, so the warp's lanes part ways.
__global__ void ragged_sum(const float* in, float* out, int base) {
  const int lane = threadIdx.x % 32, n = base + 100 * lane;
  float s = 0;
  for (int i = 0; i < n; ++i) s += in[(i % 1024) * 32 + lane];
  out[threadIdx.x] = s;
}

// Warp 0 reads shared word 5 all through a long loop; warp 1 writes it with no
// barrier in between: a race, whichever side of a cut of warp 0's log the reads lie.
__global__ void race_after_long_reads(float* out, int iterations) {
  __shared__ float s[64];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = 1;
    s[threadIdx.x + 32] = 1;
  }
  __syncthreads();
  float sum = 0;
  if (threadIdx.x < 32)
    for (int i = 0; i < iterations; ++i) sum += s[(i + threadIdx.x) % 64];
  else
    s[5] = 2;
  out[threadIdx.x] = sum;
}

static long peak_rss_kib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0) std::sscanf(line + 6, "%ld", &kib);
  if (f) std::fclose(f);
  return kib;
}

int main() {
  const int n = 1024 * 64;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = float(i % 7);
  cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);

  const long before = peak_rss_kib();
  stream_sum<<<1, 64>>>(in, out, 400000);  // 800,000 rows in all: 230 MB of log if kept whole
  float r[64];
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("stream_sum: %s, out[0] = %.1f\n", cudaGetErrorString(cudaGetLastError()), r[0]);
  const long grown_mib = (peak_rss_kib() - before) / 1024;
  printf("peak resident size grew by less than 64 MiB: %s\n", grown_mib < 64 ? "yes" : "no");

  ragged_sum<<<1, 32>>>(in, out, 20000);
  cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("ragged_sum: %s, out[31] = %.1f\n", cudaGetErrorString(cudaGetLastError()), r[31]);

  race_after_long_reads<<<1, 64>>>(out, 20000);
  printf("race_after_long_reads: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
