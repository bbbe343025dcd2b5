// cudaMemset to a non-zero value of more bytes than this machine has left: the
// simulator would have to write them all, so it refuses with cudaErrorMemoryAllocation
// and says why, instead of growing until the kernel kills it. A value of 0 over the
// same range, and a small non-zero memset, still work.
#include <cstdio>
#include <cstdlib>
#include <cstring>

// MemAvailable of /proc/meminfo in bytes.
size_t available_bytes() {
  FILE* f = std::fopen("/proc/meminfo", "r");
  char line[256];
  size_t kib = 0;
  while (f && std::fgets(line, sizeof line, f))
    if (std::strncmp(line, "MemAvailable:", 13) == 0) kib = std::strtoull(line + 13, nullptr, 10);
  if (f) std::fclose(f);
  return kib * 1024;
}

int main() {
  const size_t bytes = available_bytes() + (size_t(8) << 30);
  unsigned char* p;
  if (bytes > (size_t(120) << 30) || cudaMalloc(&p, bytes) != cudaSuccess) {
    std::printf("skipped: this machine has more memory than the device\n");
    return 0;
  }
  std::printf("non-zero: %s\n", cudaGetErrorString(cudaMemset(p, 1, bytes)));
  std::printf("zero: %s\n", cudaGetErrorString(cudaMemset(p, 0, bytes)));
  std::printf("small non-zero: %s\n", cudaGetErrorString(cudaMemset(p, 1, 4096)));
  unsigned char got = 0;
  cudaMemcpy(&got, p + 4095, 1, cudaMemcpyDeviceToHost);
  std::printf("written: %d\n", got);
  cudaFree(p);
  return 0;
}
