// cudaFree of what is not a live cudaMalloc base: a host pointer, a pinned pointer,
// an interior device pointer and a second free all return cudaErrorInvalidValue with
// CUDA 13 on the H200; cudaFree(nullptr) is cudaSuccess. Each error is also what
// cudaGetLastError then reports (and clears).
#include <cstdio>
#include <cstdlib>

static void show(const char* what, cudaError_t e) {
  const cudaError_t last = cudaGetLastError();
  printf("%-9s %d %s | last %d\n", what, int(e), cudaGetErrorName(e), int(last));
}

int main() {
  float* d;
  float* pinned;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMallocHost(&pinned, 64 * sizeof(float));
  float* heap = static_cast<float*>(malloc(64));
  show("host", cudaFree(heap));
  show("pinned", cudaFree(pinned));
  show("interior", cudaFree(d + 1));
  show("nullptr", cudaFree(nullptr));
  show("device", cudaFree(d));
  show("twice", cudaFree(d));
  float* again;  // the runtime still works
  show("malloc", cudaMalloc(&again, 64));
  show("free", cudaFree(again));
  cudaFreeHost(pinned);
  free(heap);
  return 0;
}
