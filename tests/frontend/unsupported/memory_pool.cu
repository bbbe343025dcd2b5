#include <cstdio>
int main() {
  cudaMemPool_t pool;  // line 3
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  void* p = nullptr;
  cudaMallocFromPoolAsync(&p, 256, pool, s);
  cudaFreeAsync(p, s);
  cudaStreamSynchronize(s);
  printf("done\n");
  return 0;
}
