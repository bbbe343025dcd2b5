// A spin lock between the warps of one block: one thread of each warp (lane 0, so the
// program is correct on any GPU: lanes of one warp contending for a lock can livelock
// before Volta) takes the lock with atomicCAS, fences, increments a plain counter,
// fences, and releases the lock with atomicExch. The fence after taking the lock and
// the one before releasing it order each increment after the previous holder's (an
// acquire and a release), so this runs clean and counts every increment
// (tests/frontend/test_limits.cpp).
//
// Built with -DNO_FENCE it is a race: the atomics alone are relaxed, and a GPU may
// let the next holder read the counter before the previous holder's write reaches it.
#include <cstdio>

#ifdef NO_FENCE
#define FENCE()
#else
#define FENCE() __threadfence()
#endif

constexpr int kRounds = 50;

// Lock and counter in global memory.
__global__ void global_lock(int* lock, int* counter) {
  if (threadIdx.x % 32 != 0) return;
  for (int r = 0; r < kRounds; ++r) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    FENCE();
    *counter = *counter + 1;
    FENCE();
    atomicExch(lock, 0);
  }
}

// Lock and counter in shared memory; thread 0 writes the count after the barrier.
__global__ void shared_lock(int* out) {
  __shared__ int lock, counter;
  if (threadIdx.x == 0) lock = counter = 0;
  __syncthreads();
  if (threadIdx.x % 32 == 0)
    for (int r = 0; r < kRounds; ++r) {
      while (atomicCAS(&lock, 0, 1) != 0) {
      }
      FENCE();
      counter = counter + 1;
      FENCE();
      atomicExch(&lock, 0);
    }
  __syncthreads();
  if (threadIdx.x == 0) *out = counter;
}

int main() {
  int *words, *out;
  cudaMalloc(&words, 2 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(words, 0, 2 * sizeof(int));
  cudaMemset(out, 0, sizeof(int));
  global_lock<<<1, 128>>>(words, words + 1);
  cudaError_t e1 = cudaDeviceSynchronize();
  shared_lock<<<1, 128>>>(out);
  cudaError_t e2 = cudaDeviceSynchronize();
  int h[2] = {0, 0};
  cudaMemcpy(h, words + 1, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(h + 1, out, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("global counter %d, shared counter %d (of %d): %s, %s\n", h[0], h[1], 4 * kRounds,
              cudaGetErrorName(e1), cudaGetErrorName(e2));
  return 0;
}
