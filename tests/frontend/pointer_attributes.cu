// cudaPointerGetAttributes on each kind of pointer a program holds: device memory
// (its base and an interior pointer), managed memory, pinned host memory from
// cudaMallocHost and cudaHostAlloc, and plain host memory (CUDA 13: cudaSuccess,
// cudaMemoryTypeUnregistered).
#include <cstdio>
#include <cstdlib>

static void show(const char* what, const void* p) {
  cudaPointerAttributes a;
  const cudaError_t e = cudaPointerGetAttributes(&a, p);
  if (a.type == cudaMemoryTypeUnregistered) {  // CUDA leaves device and devicePointer unspecified
    printf("%-9s %d type %d\n", what, int(e), int(a.type));
    return;
  }
  printf("%-9s %d type %d device %d devicePointer %s hostPointer %s\n", what, int(e), int(a.type), a.device,
         a.devicePointer == p ? "=p" : a.devicePointer ? "other" : "null",
         a.hostPointer == p ? "=p" : a.hostPointer ? "other" : "null");
}

int main() {
  float* d;
  float* m;
  float* pinned;
  void* host_alloc;
  cudaMalloc(&d, 1024 * sizeof(float));
  cudaMallocManaged(&m, 256 * sizeof(float));
  cudaMallocHost(&pinned, 64 * sizeof(float));
  cudaHostAlloc(&host_alloc, 128, cudaHostAllocDefault);
  float* heap = static_cast<float*>(malloc(64));
  float local = 0;
  show("device", d);
  show("interior", d + 100);
  show("managed", m);
  show("pinned", pinned);
  show("pinned+8", pinned + 8);
  show("hostalloc", host_alloc);
  show("malloc", heap);
  show("stack", &local);
  printf("last error %d\n", int(cudaGetLastError()));
  cudaFree(d);
  cudaFree(m);
  cudaFreeHost(pinned);
  cudaFreeHost(host_alloc);
  free(heap);
  return 0;
}
