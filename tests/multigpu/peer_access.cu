// A kernel on GPU 0 touching GPU 1's memory (one address space for both, as under
// UVA): with cudaDeviceEnablePeerAccess(1) from GPU 0 it reads the values; without it
// the launch faults with cudaErrorIllegalAddress, sticky on GPU 0 only, as on real GPUs
// (docs/multi-gpu.md). Managed memory is every GPU's without peer access. Plain CUDA:
// it runs on two real GPUs too. Prints one line per step and "PASS" when every step
// saw what CUDA specifies.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void copy(float* dst, const float* src, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

__global__ void add_one(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

__global__ void fill(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + float(i);
}

int main() {
  const int n = 1024;
  int failed = 0;
  auto check = [&](const char* step, bool ok) {
    std::printf("%-44s %s\n", step, ok ? "ok" : "WRONG");
    failed += !ok;
  };

  // GPU 1 owns `remote`; GPU 0 owns `local`.
  float *remote = nullptr, *local = nullptr, *managed = nullptr;
  cudaSetDevice(1);
  cudaMalloc(&remote, n * sizeof(float));
  fill<<<n / 256, 256>>>(remote, n, 100.0f);
  cudaMallocManaged(&managed, n * sizeof(float));
  cudaDeviceSynchronize();
  cudaSetDevice(0);
  cudaMalloc(&local, n * sizeof(float));

  // Managed memory: a kernel on either GPU reaches it, no peer access needed.
  for (int i = 0; i < n; ++i) managed[i] = float(i);
  add_one<<<n / 256, 256>>>(managed, n);
  check("managed memory from GPU 0", cudaDeviceSynchronize() == cudaSuccess && managed[7] == 8.0f);
  cudaSetDevice(1);
  add_one<<<n / 256, 256>>>(managed, n);
  check("managed memory from GPU 1", cudaDeviceSynchronize() == cudaSuccess && managed[7] == 9.0f);

  // With peer access from GPU 0 to GPU 1: the kernel on GPU 0 reads GPU 1's values.
  cudaSetDevice(0);
  check("cudaDeviceEnablePeerAccess(1) from GPU 0", cudaDeviceEnablePeerAccess(1, 0) == cudaSuccess);
  copy<<<n / 256, 256>>>(local, remote, n);
  float h[n];
  const cudaError_t with_peer = cudaMemcpy(h, local, sizeof h, cudaMemcpyDeviceToHost);
  check("GPU 0 reads GPU 1's memory with peer access", with_peer == cudaSuccess && h[5] == 105.0f && h[n - 1] == 100.0f + n - 1);

  // Without it: an illegal address on GPU 0, returned by every later call there.
  check("cudaDeviceDisablePeerAccess(1) from GPU 0", cudaDeviceDisablePeerAccess(1) == cudaSuccess);
  copy<<<n / 256, 256>>>(local, remote, n);
  const cudaError_t without = cudaDeviceSynchronize();
  std::printf("without peer access: %s\n", cudaGetErrorName(without));
  check("GPU 0 without peer access faults", without == cudaErrorIllegalAddress);
  check("the fault is sticky on GPU 0", cudaMemcpy(h, local, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorIllegalAddress);

  // GPU 1 is untouched by GPU 0's fault.
  cudaSetDevice(1);
  add_one<<<n / 256, 256>>>(remote, n);
  const cudaError_t gpu1 = cudaMemcpy(h, remote, sizeof h, cudaMemcpyDeviceToHost);
  check("GPU 1 still runs", gpu1 == cudaSuccess && h[5] == 106.0f);

  std::printf("%s\n", failed ? "FAIL" : "PASS");
  return failed ? 1 : 0;
}
