// Device malloc and free: a block freed returns to the heap (the next malloc of its
// size gets it again), and freeing it a second time stops the block at that line.
#include <cstdio>

__global__ void twice(int* out) {
  int* p = (int*)malloc(64);
  p[0] = 5;
  out[0] = p[0];
  free(p);
  int* q = (int*)malloc(64);
  out[1] = q == p;
  free(q);
  free(q);  // line 13: freed already
}

int main() {
  int* d;
  cudaMalloc(&d, 2 * sizeof(int));
  twice<<<1, 1>>>(d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
