// Four host threads launch kernels and copy at once, each on its own buffer: CUDA
// allows it, and each thread must see its own result (simtlab serves the calls one
// at a time under its runtime lock). Prints "1 1 1 1" and exits 0 when all are right.
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

__global__ void add(float* x, int n, float v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += v;
}

int main() {
  const int n = 1 << 14;
  std::vector<int> ok(4, 0);
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k)
    threads.emplace_back([&, k] {
      float* d = nullptr;
      cudaMalloc(&d, n * sizeof(float));
      cudaMemset(d, 0, n * sizeof(float));
      for (int r = 0; r < 20; ++r) add<<<n / 256, 256>>>(d, n, 1.0f + k);
      std::vector<float> h(n);
      cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
      ok[k] = h[0] == 20.0f * (1 + k) && h[n - 1] == h[0];
      cudaFree(d);
    });
  for (auto& t : threads) t.join();
  std::printf("%d %d %d %d\n", ok[0], ok[1], ok[2], ok[3]);
  return ok[0] && ok[1] && ok[2] && ok[3] ? 0 : 1;
}
