// Warps of one block handing a turn back and forth, as warps interleave on the GPU:
// warp 0 waits for warp 1 and warp 1 for warp 0, three rounds each, through a
// __shared__ word read and written with atomics. A spinning thread lets its block's
// other threads run, so this completes; a spin on a word nobody changes still ends as
// a deadlock (spin_forever.cu).
#include <cstdio>

__global__ void ping_pong(int* rounds) {
  __shared__ int turn;
  if (threadIdx.x == 0) turn = 0;
  __syncthreads();
  const int me = threadIdx.x / 32;
  if (threadIdx.x % 32 != 0) return;
  for (int r = 0; r < 3; ++r) {
    while (atomicAdd(&turn, 0) != me) {}
    atomicExch(&turn, 1 - me);
    atomicAdd(rounds, 1);
  }
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  ping_pong<<<1, 64>>>(d);
  int h = 0;
  cudaError_t e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("rounds %d, %s\n", h, cudaGetErrorName(e));
  return 0;
}
