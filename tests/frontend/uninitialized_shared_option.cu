// A block of 3 warps whose first warp reads 32 per-warp slots of which only 3 were
// written, scans them with shuffles and keeps only the first 3 sums (the shape of
// NVIDIA's shfl_scan sample): simtlab stops it at the read by default, and runs it
// with SIMT_OPTIONS=uninitialized=0, as a GPU does.
#include <cstdio>

__global__ void warp_totals(int* out) {
  __shared__ int totals[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0) totals[warp] = warp + 1;
  __syncthreads();
  if (warp == 0) {
    int v = totals[lane];  // lanes 3..31 read slots no warp wrote
    for (int i = 1; i < 32; i *= 2) {  // an inclusive scan: lanes 0..2 see only lanes 0..2
      const int below = __shfl_up_sync(0xffffffffu, v, i);
      if (lane >= i) v += below;
    }
    if (lane < 3) out[lane] = v * 10;
  }
}

int main() {
  int* d;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  warp_totals<<<1, 96>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  int h[3] = {-1, -1, -1};  // a failed launch may leave the copy undone
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%s %d %d %d\n", cudaGetErrorName(e), h[0], h[1], h[2]);
  cudaFree(d);
  return 0;
}
