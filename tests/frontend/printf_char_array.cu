// Device printf of a char array (and other argument types).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hello(int n) {
  char name[8] = {'b', 'l', 'o', 'c', 'k', '\0'};
  if (threadIdx.x == 0) printf("%s %d of %d: %.2f\n", name, int(blockIdx.x), n, 0.5);
}

int main() {
  hello<<<2, 32>>>(2);
  cudaDeviceSynchronize();
  return 0;
}
