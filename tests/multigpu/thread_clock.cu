// A host thread's time on the simulated clock starts where its creator's stood, and
// joining a thread brings the joiner up to where the joined one stopped — as on a
// real machine, where a thread runs after pthread_create and its work is behind the
// joiner once pthread_join returns. Without the first rule a new thread would issue
// its launches in the simulated past, for free; without the second the main thread
// would record events before the work its threads issued.
//
// The main thread issues `kLaunches` launches (the host pays ~5 us each), then starts
// a thread that records an event on a fresh stream and issues as many launches; after
// the join the main thread records an event on another fresh stream. Fresh streams
// are idle, so each event lands at its host thread's time. Prints the two gaps (ms)
// and PASS when both are at least 90% of the issue time before them. Also builds with
// nvcc; on a GPU the gaps are real host times and the same checks hold.
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>

__global__ void tiny(int* x) {
  if (threadIdx.x == 0) x[blockIdx.x] += 1;
}

constexpr int kLaunches = 200;

int main() {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  cudaStream_t work, probe0, probe1, probe2;
  cudaStreamCreate(&work);
  cudaStreamCreate(&probe0);
  cudaStreamCreate(&probe1);
  cudaStreamCreate(&probe2);
  cudaEvent_t at_start, in_thread, after_join;
  cudaEventCreate(&at_start);
  cudaEventCreate(&in_thread);
  cudaEventCreate(&after_join);

  cudaEventRecord(at_start, probe0);
  for (int i = 0; i < kLaunches; ++i) tiny<<<1, 32, 0, work>>>(d);
  float issue_ms = 0;  // what the main thread's launches cost the host
  std::thread t([&] {
    cudaEventRecord(in_thread, probe1);  // the thread's time as it begins
    for (int i = 0; i < kLaunches; ++i) tiny<<<1, 32, 0, work>>>(d);
  });
  t.join();
  cudaEventRecord(after_join, probe2);
  cudaDeviceSynchronize();

  float started = 0, joined = 0;
  cudaEventElapsedTime(&started, at_start, in_thread);
  cudaEventElapsedTime(&joined, at_start, after_join);
  int h = 0;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  issue_ms = started;
  std::printf("thread began %.3f ms after the main thread's first event (its %d launches before it)\n", started,
              kLaunches);
  std::printf("main thread after the join: %.3f ms (%d + %d launches)\n", joined, kLaunches, kLaunches);
  // 2 kLaunches launches of 1 us or more each on the host: a thread starting at time 0
  // would show ~0 ms, a join that ignored the thread about `started`.
  const bool ok = h == 2 * kLaunches && started >= 0.9 * kLaunches * 1e-3 && joined >= 1.8 * issue_ms;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
