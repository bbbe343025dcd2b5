// A cooperative launch's blocks must all be resident at once: a grid larger than the
// device's SMs hold is refused with cudaErrorCooperativeLaunchTooLarge (720) before
// anything runs; it is a launch error (not sticky), and a grid that fits runs.
// H200: 132 SMs; 100 KiB of shared memory per block leaves 2 blocks per SM (228 KiB,
// 1 KiB reserved per block); 1024 threads per block leave 2 (2048 per SM).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void touch(int* count) {
  extern __shared__ int s[];
  if (threadIdx.x == 0) s[0] = 1;
  cg::this_grid().sync();
  if (threadIdx.x == 0) atomicAdd(count, s[0]);
}

int main() {
  int* count;
  cudaMalloc(&count, sizeof(int));
  cudaMemset(count, 0, sizeof(int));
  const int shmem = 100 * 1024;
  cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, shmem);
  int per_sm = -1, sms = 0, coop = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, touch, 32, shmem);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0);
  printf("%d blocks per SM, %d SMs, cooperative launch %d\n", per_sm, sms, coop);
  void* args[] = {&count};
  cudaError_t e = cudaLaunchCooperativeKernel(touch, dim3(per_sm * sms + 1), dim3(32), args, shmem, 0);
  printf("%d blocks: %d %s\n", per_sm * sms + 1, int(e), cudaGetErrorString(e));
  printf("last error: %s, then %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaGetLastError()));
  e = cudaLaunchCooperativeKernel(touch, dim3(265), dim3(1024), args, 0, 0);
  printf("265 blocks of 1024 threads: %s\n", cudaGetErrorName(e));
  e = cudaLaunchCooperativeKernel(touch, dim3(per_sm * sms), dim3(32), args, shmem, 0);
  int h = 0;
  cudaMemcpy(&h, count, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d blocks: %s, count %d\n", per_sm * sms, cudaGetErrorString(e), h);
  return 0;
}
