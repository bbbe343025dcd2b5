// Device clock64() and clock(): the simulated device's counter (docs/exec.md, "Device
// clock"). Within a thread it never decreases; a longer loop between two reads gives a
// larger difference; after __syncthreads() no thread reads less than any thread had
// before it. Host clock() stays the C library's. The program checks itself and exits 1
// on a failure.
#include <cstdio>
#include <ctime>

__global__ void timed_loop(const float* x, int n, float* out, long long* cycles, int* ok) {
  const long long start = clock64();
  const clock_t start32 = clock();
  long long last = start;
  int monotonic = 1;
  float acc = 0.0f;
  for (int i = 0; i < n; ++i) {
    acc = acc * 0.5f + x[i % 32];
    const long long now = clock64();
    monotonic &= now >= last;
    last = now;
  }
  const long long end = clock64();
  const clock_t end32 = clock();
  out[threadIdx.x] = acc;
  cycles[threadIdx.x] = end - start;
  ok[threadIdx.x] = monotonic && end >= last && end32 >= start32;
}

// Thread 0 works, the others wait at the barrier: after it, every thread's clock is
// at least thread 0's before it.
__global__ void barrier_wait(const float* x, int n, float* out, long long* before, long long* after) {
  float acc = 0.0f;
  if (threadIdx.x == 0)
    for (int i = 0; i < n; ++i) acc = acc * 0.5f + x[i % 32];
  before[threadIdx.x] = clock64();
  __syncthreads();
  after[threadIdx.x] = clock64();
  out[threadIdx.x] = acc;
}

int main() {
  float h[32];
  for (int i = 0; i < 32; ++i) h[i] = float(i);
  float *x, *out;
  long long *cycles, *before, *after;
  int* ok;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&out, 64 * sizeof(float));
  cudaMalloc(&cycles, 64 * sizeof(long long));
  cudaMalloc(&before, 64 * sizeof(long long));
  cudaMalloc(&after, 64 * sizeof(long long));
  cudaMalloc(&ok, 64 * sizeof(int));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  bool pass = true;
  long long per_n[2];
  const int sizes[2] = {10, 1000};
  for (int s = 0; s < 2; ++s) {
    timed_loop<<<1, 64>>>(x, sizes[s], out, cycles, ok);
    long long c[64];
    int k[64];
    cudaMemcpy(c, cycles, sizeof c, cudaMemcpyDeviceToHost);
    cudaMemcpy(k, ok, sizeof k, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 64; ++t) pass &= k[t] == 1 && c[t] == c[0];
    per_n[s] = c[0];
    std::printf("loop of %d: %lld cycles\n", sizes[s], c[0]);
  }
  pass &= per_n[0] > 0 && per_n[1] > per_n[0];
  barrier_wait<<<1, 64>>>(x, 1000, out, before, after);
  long long b[64], a[64];
  cudaMemcpy(b, before, sizeof b, cudaMemcpyDeviceToHost);
  cudaMemcpy(a, after, sizeof a, cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; ++t) pass &= a[t] >= b[0] && a[t] >= b[t];
  std::printf("barrier: thread 0 %lld before, thread 1 %lld before, %lld after\n", b[0], b[1], a[1]);
  const clock_t host = clock();  // the C library's: CPU time of the process
  pass &= host > 0;
  std::printf("%s\n", pass ? "device clock OK" : "device clock FAILED");
  return pass ? 0 : 1;
}
