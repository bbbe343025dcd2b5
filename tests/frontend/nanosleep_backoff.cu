// __nanosleep as back-off in a spin wait: returns at once here, the wait still ends.
#include <cstdio>

__global__ void handoff(volatile int* flag, int* out) {
  if (threadIdx.x == 32) {
    out[1] = 42;
    __threadfence();
    *flag = 1;
  } else if (threadIdx.x == 0) {
    unsigned ns = 8;
    while (*flag == 0) {
      __nanosleep(ns);
      if (ns < 256) ns *= 2;
    }
    __threadfence();
    out[0] = out[1] + 1;
  }
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  handoff<<<1, 64>>>(flag, out);
  int h[2] = {0, 0};
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %s\n", h[0], h[1], cudaGetErrorName(cudaGetLastError()));
  return 0;
}
