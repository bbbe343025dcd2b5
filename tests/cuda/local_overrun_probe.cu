// What the GPU does when a kernel writes a local array past its end: at a small
// overrun (element 100 of 4) and a huge one (element 2^26 of 4), without and under
// compute-sanitizer. simtlab reports both as an out-of-bounds local write
// (docs/frontend.md, "Local arrays"); this probe records what CUDA itself returns.
//   nvcc -arch=sm_90 -O3 local_overrun_probe.cu -o probe && ./probe 100 && ./probe 67108864
#include <cstdio>
#include <cstdlib>

__global__ void overrun(int i, int* out) {
  volatile int a[4];
  for (int k = 0; k < 4; ++k) a[k] = k;
  a[i] = 7;
  out[threadIdx.x] = a[threadIdx.x % 4];
}

int main(int argc, char** argv) {
  const int i = argc > 1 ? std::atoi(argv[1]) : 100;
  int* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(int));
  overrun<<<1, 32>>>(i, out);
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  int host[32] = {};
  const cudaError_t copy = cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("index %d: launch %d (%s), sync %d (%s), copy %d, out[0..3] = %d %d %d %d\n", i, int(launch),
              cudaGetErrorName(launch), int(sync), cudaGetErrorName(sync), int(copy), host[0], host[1], host[2], host[3]);
  return 0;
}
