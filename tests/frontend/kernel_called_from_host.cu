// A __global__ function called like a host function, through a pointer, as llm.c's
// benchmark_kernel does: with nvcc that calls the kernel's stub, which finds no launch
// configuration and launches nothing. Prints "0 1" (nothing written, then a real launch).
#include <cstdio>

__global__ void set_one(int* flag) { flag[threadIdx.x] = 1; }

template <class Kernel, class... Args>
void call_directly(Kernel kernel, Args... args) {
  kernel(args...);
}

int main() {
  int* flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  call_directly(set_one, flag);
  int host = -1;
  cudaMemcpy(&host, flag, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d ", host);
  set_one<<<1, 1>>>(flag);
  cudaMemcpy(&host, flag, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", host);
  return 0;
}
