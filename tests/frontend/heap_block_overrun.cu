// An access past the end of a device malloc block that stays inside the heap: the GPU
// does not fault (the heap is one region of device memory); compute-sanitizer's
// memcheck reports it, and so does the simulator, naming the block's size and the offset.
#include <cstdio>
#include <cstdlib>

__global__ void overrun(int* out, int n) {
  int* p = static_cast<int*>(malloc(10 * sizeof(int)));  // 40 bytes
  int* q = static_cast<int*>(malloc(10 * sizeof(int)));
  for (int k = 0; k < n; ++k) p[k] = k;  // line 10: n = 11 writes p[10], bytes 40..43
  q[0] = 1;
  out[0] = p[n - 1] + q[0];
  free(p);
  free(q);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 11;
  int* d;
  cudaMalloc(&d, sizeof(int));
  overrun<<<1, 1>>>(d, n);
  int h = 0;
  cudaError_t e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%s %d\n", cudaGetErrorName(e), e == cudaSuccess ? h : -1);
  return 0;
}
