// A __device__ variable: refused at compile time, naming the line.
#include <cuda_runtime.h>

__device__ int counter;

__global__ void bump() { counter += 1; }

int main() {
  bump<<<1, 32>>>();
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
