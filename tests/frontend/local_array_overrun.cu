// A local array written far past its end (issue 30): the GPU would write the thread's
// local memory unseen, or fault with an illegal address once the write leaves it;
// the simulator stops at the line, naming the array's size and the offset.
#include <cstdio>
#include <cstdlib>

__global__ void overrun(int* out, int i) {
  volatile int a[4];
  for (int k = 0; k < 4; ++k) a[k] = k;
  a[i] = 1;  // line 10: i = 100 writes 384 bytes past the end
  out[threadIdx.x] = a[threadIdx.x % 4];
}

int main(int argc, char** argv) {
  const int i = argc > 1 ? std::atoi(argv[1]) : 100;
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  overrun<<<1, 32>>>(d, i);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
