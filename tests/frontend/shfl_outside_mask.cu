// __shfl_down_sync within a ballot of the first 8 lanes, as NVIDIA's reduction sample
// does it (reduce7's last warp): a source lane the mask leaves out reads 0.
#include <cstdio>

__global__ void first_lanes_sum(int* out) {
  const int lane = threadIdx.x;
  const unsigned first8 = __ballot_sync(0xffffffffu, lane < 8);
  if (lane < 8) {
    int s = lane + 1;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(first8, s, offset);
    out[lane] = s;
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 8 * sizeof(int));
  first_lanes_sum<<<1, 32>>>(d);
  int h[8];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; ++i) printf(i ? " %d" : "%d", h[i]);
  printf("\n");
  cudaFree(d);
  return 0;
}
