// A handoff between two warps of one block through a volatile flag: the producer
// writes its data, fences, and raises the flag; the consumer spins on the flag,
// fences, and reads the data. The volatile accesses of the flag are relaxed
// operations (no data race), and the fence before the flag's store and the one
// after its load order the data (a release and an acquire), so this runs clean, as it
// does on any GPU (tests/frontend/test_limits.cpp).
//
// Its racy twins must still be reported: built with -DNO_FENCE the data's read is not
// ordered after its write (a GPU may show the consumer stale data), and built with
// -DNO_VOLATILE the flag itself is a plain variable two warps race on (nvcc may also
// keep it in a register: the consumer's spin would never end).
#include <cstdio>

#ifdef NO_FENCE
#define FENCE()
#define FENCE_BLOCK()
#else
#define FENCE() __threadfence()
#define FENCE_BLOCK() __threadfence_block()
#endif
#ifdef NO_VOLATILE
#define VOLATILE
#else
#define VOLATILE volatile
#endif

// Warp 0 produces, warp 1 consumes: the producer runs first. Data and flag in global
// memory.
__global__ void global_flag(int* data, VOLATILE int* flag, int* out) {
  if (threadIdx.x == 0) {
    for (int i = 0; i < 4; ++i) data[i] = 10 + i;
    FENCE();
    *flag = 1;
  } else if (threadIdx.x == 32) {
    while (*flag == 0) {
    }
    FENCE();
    out[0] = data[0] + data[1] + data[2] + data[3];
  }
}

// Warp 1 produces, warp 0 consumes: the consumer spins first and lets the producer
// run. Data and flag in shared memory, __threadfence_block() (the block's scope is
// enough for shared memory); a third warp reads the data after the barrier.
__global__ void shared_flag(int* out) {
  __shared__ int data[32];
  VOLATILE __shared__ int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 32) {
    for (int i = 0; i < 32; ++i) data[i] = i;
    FENCE_BLOCK();
    flag = 1;
  } else if (threadIdx.x == 0) {
    while (flag == 0) {
    }
    FENCE_BLOCK();
    int s = 0;
    for (int i = 0; i < 32; ++i) s += data[i];
    out[1] = s;
  }
  __syncthreads();
  if (threadIdx.x == 64) out[2] = data[31];
}

int main() {
  int *data, *flag, *out;
  cudaMalloc(&data, 4 * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMemset(out, 0, 3 * sizeof(int));
  global_flag<<<1, 64>>>(data, flag, out);
  cudaError_t e1 = cudaDeviceSynchronize();
  shared_flag<<<1, 96>>>(out);
  cudaError_t e2 = cudaDeviceSynchronize();
  int h[3] = {0, 0, 0};
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("global %d, shared %d %d: %s, %s\n", h[0], h[1], h[2], cudaGetErrorName(e1), cudaGetErrorName(e2));
  return 0;
}
