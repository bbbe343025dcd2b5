// Vector addition: driver, reference and registration (the kernel is in vector_add.cuh).
#include "kernels/harness.hpp"
#include "kernels/vector_add.cuh"

#include <vector>

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
  vector_add<<<(n + block - 1) / block, block>>>(da, db, dc, n);
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
