// One warp reads a shared word, a warp shuffle follows, then lane 0 overwrites the word
// (llm.c's softmax_forward kernel 4 at 32 threads): the shuffle orders the lanes, as on
// the GPU, so this is no race. With two warps the second warp's reads are not ordered
// by the first warp's shuffle: that is a race.
#include <cstdio>

__global__ void reuse(float* out) {
  __shared__ float slot[2];
  if (threadIdx.x == 0) slot[0] = 1.0f;
  __syncthreads();
  float v = slot[0];  // every thread reads slot 0
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  if (threadIdx.x % 32 == 0) slot[threadIdx.x / 32] = v;  // lane 0 of warp 0 writes slot 0
  __syncthreads();
  out[threadIdx.x] = slot[0];
}

int main() {
  float* out;
  cudaMalloc(&out, 64 * sizeof(float));
  reuse<<<1, 32>>>(out);
  printf("one warp: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  reuse<<<1, 64>>>(out);
  printf("two warps: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
