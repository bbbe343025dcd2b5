// What the host spends issuing a kernel launch, an async copy, a memset and an event
// record: the constants of the simulated clock's host issue cost (docs/exec.md, 'The
// simulated clock'; docs/validation/h200-launch-issue.md). Plain CUDA; on a GPU:
//   nvcc -O3 -arch=sm_90 -o launch_issue_probe tests/cuda/launch_issue_probe.cu && ./launch_issue_probe
// and under `simt exec tests/cuda/launch_issue_probe.cu -- --quick` for the simulated
// clock's figures (burst_gpu; the host columns there are the simulator's own wall time).
//
// For each call it prints, in microseconds per call:
//   batch_host  median over 50 batches of 100 calls, each batch started on an idle
//               device (the queue empty): the host's own cost of one call;
//   burst_host  10,000 calls back to back, timed on the host with std::chrono (the
//               loop alone): the issue rate once the device's queue has filled;
//   burst_wall  the same with the final cudaDeviceSynchronize;
//   burst_gpu   cudaEventElapsedTime between events recorded around the 10,000 calls.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>
#include <cuda_runtime.h>

__global__ void empty0() {}
__global__ void empty1(long a) { (void)a; }
__global__ void empty2(long a, long b) { (void)a, (void)b; }
__global__ void empty4(long a, long b, long c, long d) { (void)a, (void)b, (void)c, (void)d; }
__global__ void empty8(long a, long b, long c, long d, long e, long f, long g, long h) {
  (void)a, (void)b, (void)c, (void)d, (void)e, (void)f, (void)g, (void)h;
}
__global__ void tiny(float* out, float v) { out[threadIdx.x] = v + float(threadIdx.x); }

namespace {

bool g_quick = false;
using Clock = std::chrono::steady_clock;
double us_since(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

template <class F>
void probe(const char* name, F call) {
  const int kBurst = g_quick ? 1000 : 10000, kBatch = 100, kBatches = g_quick ? 10 : 50;
  for (int i = 0; i < 200; ++i) call();  // warm-up: first-launch costs (module load) out of the figures
  cudaDeviceSynchronize();
  std::vector<double> batches;
  for (int b = 0; b < kBatches; ++b) {
    cudaDeviceSynchronize();
    const auto t0 = Clock::now();
    for (int i = 0; i < kBatch; ++i) call();
    batches.push_back(us_since(t0) / kBatch);
  }
  cudaDeviceSynchronize();
  std::sort(batches.begin(), batches.end());
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  const auto t0 = Clock::now();
  cudaEventRecord(a);
  for (int i = 0; i < kBurst; ++i) call();
  cudaEventRecord(b);
  const double host = us_since(t0);
  cudaDeviceSynchronize();
  const double wall = us_since(t0);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::printf("%-22s batch_host %8.3f  burst_host %8.3f  burst_wall %8.3f  burst_gpu %8.3f  (us per call; %s)\n", name,
              batches[kBatches / 2], host / kBurst, wall / kBurst, ms * 1e3 / kBurst,
              cudaGetErrorString(cudaGetLastError()));
}

}  // namespace

int main(int argc, char** argv) {
  // `--quick`: 10 batches of 100 and bursts of 1,000 (for the simulator, which runs
  // every launch on the CPU); the GPU run takes the full counts.
  if (argc > 1 && std::string(argv[1]) == "--quick") g_quick = true;
  float *d, *d2, *pinned;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMalloc(&d2, 1024 * sizeof(float));
  cudaMallocHost(&pinned, 1024 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e;
  cudaEventCreate(&e);
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  int driver = 0, runtime = 0;
#ifndef SIMT_CLANG_FRONTEND  // simtlab has no driver to report
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
#endif
  std::printf("device %s, driver %d, runtime %d\n", prop.name, driver, runtime);
  probe("launch_empty_0_args", [] { empty0<<<1, 1>>>(); });
  probe("launch_empty_1_arg", [] { empty1<<<1, 1>>>(1); });
  probe("launch_empty_2_args", [] { empty2<<<1, 1>>>(1, 2); });
  probe("launch_empty_4_args", [] { empty4<<<1, 1>>>(1, 2, 3, 4); });
  probe("launch_empty_8_args", [] { empty8<<<1, 1>>>(1, 2, 3, 4, 5, 6, 7, 8); });
  probe("launch_tiny_32", [&] { tiny<<<1, 32>>>(d, 1.0f); });
  probe("launch_tiny_stream", [&] { tiny<<<1, 32, 0, s>>>(d, 1.0f); });
  probe("launch_tiny_8x256", [&] { tiny<<<8, 256>>>(d, 1.0f); });
  probe("memcpy_async_h2d_4B", [&] { cudaMemcpyAsync(d, pinned, 4, cudaMemcpyHostToDevice); });
  probe("memcpy_async_d2h_4B", [&] { cudaMemcpyAsync(pinned, d, 4, cudaMemcpyDeviceToHost); });
  probe("memcpy_async_d2d_4B", [&] { cudaMemcpyAsync(d2, d, 4, cudaMemcpyDeviceToDevice); });
  probe("memset_async_4B", [&] { cudaMemsetAsync(d, 0, 4); });
  probe("event_record", [&] { cudaEventRecord(e); });
  cudaFreeHost(pinned);
  cudaFree(d);
  cudaFree(d2);
  return 0;
}
