// What the GPU does when a kernel writes past the end of a block from device malloc,
// without and under compute-sanitizer. simtlab reports it as an out-of-bounds access
// of the block (docs/frontend.md); this probe records what CUDA itself returns.
//   nvcc -arch=sm_90 -O3 heap_overrun_probe.cu -o probe && ./probe 10 && ./probe 100000
#include <cstdio>
#include <cstdlib>

__global__ void overrun(int i, int* out) {
  int* p = static_cast<int*>(malloc(10 * sizeof(int)));
  if (!p) { out[0] = -1; return; }
  for (int k = 0; k < 10; ++k) p[k] = k;
  reinterpret_cast<volatile int*>(p)[i] = 7;
  out[0] = reinterpret_cast<volatile int*>(p)[i];
  free(p);
}

int main(int argc, char** argv) {
  const int i = argc > 1 ? std::atoi(argv[1]) : 10;
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  overrun<<<1, 1>>>(i, out);
  const cudaError_t sync = cudaDeviceSynchronize();
  int host = 0;
  cudaMemcpy(&host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("index %d of a 10-int malloc block: sync %d (%s), read back %d\n", i, int(sync), cudaGetErrorName(sync), host);
  return 0;
}
