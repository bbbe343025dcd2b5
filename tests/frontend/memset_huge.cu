// cudaMemset of 40 GiB to zero, twice around a kernel that writes into it: the
// simulated device gives whole pages back instead of writing them, so the process
// stays small (tests/frontend/test_limits.cpp reads its peak memory).
#include <cstdio>
#include <cstring>

__global__ void mark(unsigned char* p, size_t stride) { p[threadIdx.x * stride + 1] = 7; }

// The peak resident memory of this process, in MiB (Linux).
long peak_mib() {
  FILE* f = std::fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "VmHWM:", 6) == 0) kib = std::atol(line + 6);
  if (f) std::fclose(f);
  return kib / 1024;
}

int main() {
  const size_t bytes = size_t(40) << 30, stride = size_t(1) << 30;
  unsigned char* p;
  if (cudaMalloc(&p, bytes) != cudaSuccess) {
    std::printf("no 40 GiB arena here\n");
    return 0;
  }
  cudaMemset(p, 0, bytes);
  mark<<<1, 40>>>(p, stride);
  unsigned char got[2];
  cudaMemcpy(got, p + 3 * stride, 2, cudaMemcpyDeviceToHost);
  std::printf("after the kernel: %d %d\n", got[0], got[1]);
  cudaMemset(p + 1, 0, bytes - 1);  // not page-aligned at either end
  cudaMemcpy(got, p + 3 * stride, 2, cudaMemcpyDeviceToHost);
  std::printf("after the second memset: %d %d\n", got[0], got[1]);
  std::printf("peak below 2 GiB: %s\n", peak_mib() < 2048 ? "yes" : "no");
  cudaFree(p);
  return 0;
}
