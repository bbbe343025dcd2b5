// Zero-copy: kernels reading and writing page-locked host memory (cudaMallocHost,
// cudaHostAlloc) through the host's own pointer, as under UVA on a 64-bit host.
// The host changes the memory between launches without any runtime call, so an
// identical launch must run again (never a skipped repeat). nvcc-buildable.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void scale_into(float* out, const float* in, int n, float a) {  // reads host memory
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * in[i];
}
__global__ void add_one(float* x, int n) {  // reads and writes host memory
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

int main() {
  const int n = 4096;
  float *in = nullptr, *mapped = nullptr, *mapped_dev = nullptr, *out = nullptr;
  cudaSetDeviceFlags(cudaDeviceMapHost);
  printf("mallochost %d\n", int(cudaMallocHost(&in, n * sizeof(float))));
  printf("hostalloc %d\n", int(cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocMapped)));
  const cudaError_t got = cudaHostGetDevicePointer(&mapped_dev, mapped, 0);
  printf("device pointer %d same %d\n", int(got), mapped_dev == mapped);  // one address space (UVA)
  void* none = nullptr;
  float* plain = static_cast<float*>(malloc(64));
  printf("device pointer of malloc memory %d\n", int(cudaHostGetDevicePointer(&none, plain, 0)));
  cudaGetLastError();
  free(plain);
  cudaMalloc(&out, n * sizeof(float));
  float* back = static_cast<float*>(malloc(n * sizeof(float)));
  // The same launch three times; only the host's plain stores change its input.
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) in[i] = float(i + round);
    scale_into<<<n / 256, 256>>>(out, in, n, 2.0f);
    cudaMemcpy(back, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) wrong += back[i] != 2.0f * float(i + round);
    printf("round %d wrong %d\n", round, wrong);
  }
  for (int i = 0; i < n; ++i) mapped[i] = float(i);
  for (int round = 0; round < 2; ++round) add_one<<<n / 256, 256>>>(mapped_dev, n);
  printf("sync %d\n", int(cudaDeviceSynchronize()));
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += mapped[i] != float(i) + 2.0f;
  printf("in place wrong %d\n", wrong);
  const cudaError_t set = cudaMemset(mapped, 0, 64 * sizeof(float));  // the GPU reaches it: allowed
  printf("memset %d sync %d first %g\n", int(set), int(cudaDeviceSynchronize()), mapped[0]);
  printf("free host of malloc %d\n", int(cudaFreeHost(back)));
  printf("free host of device %d\n", int(cudaFreeHost(out)));
  printf("free of pinned %d\n", int(cudaFree(in)));
  cudaGetLastError();
  printf("free host %d %d\n", int(cudaFreeHost(in)), int(cudaFreeHost(mapped)));
  cudaFree(out);
  free(back);
  return 0;
}
