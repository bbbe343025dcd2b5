// Vector addition: the "hello world" of GPU kernels. One thread per element;
// consecutive threads touch consecutive floats, so every warp's load is 4
// fully-used 32-byte sectors (100% sector efficiency).
#include "kernels/harness.hpp"
#include "sim/dialect.cuh"

#include <vector>

__global__ void vector_add(const f32* a, const f32* b, f32* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

namespace {

using namespace simt::kernels;

Outputs run(const Params& p) {
  const int n = static_cast<int>(p.integer("n"));
  const int block = static_cast<int>(p.integer("block"));
  std::vector<float> a = test_values(n, 1), b = test_values(n, 2), c(n);
  float *da, *db, *dc;
  cudaMalloc(&da, n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float));
  cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  simt::launch(vector_add, (n + block - 1) / block, block)(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return {{{"c", c}}};
}

Check check(const Params& p, const Outputs& out) {
  const int n = static_cast<int>(p.integer("n"));
  std::vector<float> a = test_values(n, 1), b = test_values(n, 2), want(n);
  for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];
  return compare(out.at("c").data, want, 0.0, "c = a + b");
}

Registration reg({"vector_add", "c[i] = a[i] + b[i], one thread per element",
                  {{"n", "1048576", "number of elements"}, {"block", "256", "threads per block"}},
                  run, check});

}  // namespace
