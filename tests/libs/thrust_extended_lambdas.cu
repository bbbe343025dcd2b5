// Extended lambdas (`[=] __host__ __device__ (...)`, `[] __device__ (...)`) handed to
// Thrust, to a kernel template and called on the host, beside a function whose
// attribute list `[[nodiscard]]` precedes `__host__ __device__` (not a lambda). The
// expected values follow from the code; the file also builds with nvcc
// (--extended-lambda).
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

#include <cstdio>

[[nodiscard]] __host__ __device__ inline int twice(int x) { return 2 * x; }

template <class F> __global__ void apply(int* out, int n, F f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(i);
}

int main() {
  const int k = 3;
  thrust::device_vector<int> v(8), w(8);
  for (int i = 0; i < 8; ++i) v[i] = i;
  thrust::transform(thrust::device, v.begin(), v.end(), w.begin(), [=] __host__ __device__(int x) { return x * k + 1; });
  std::printf("transform [=] __host__ __device__: %d %d\n", int(w[0]), int(w[7]));
  thrust::transform(v.begin(), v.end(), w.begin(), [] __device__ (int x) { return twice(x) + 7; });
  std::printf("transform [] __device__: %d %d\n", int(w[0]), int(w[7]));
  apply<<<1, 8>>>(thrust::raw_pointer_cast(w.data()), 8, [k] __device__ __host__ (int i) -> int { return i - k; });
  cudaDeviceSynchronize();
  std::printf("kernel template: %d %d\n", int(w[0]), int(w[7]));
  auto f = [k] __host__ __device__ (int x) -> int { return x * x - k; };
  std::printf("on the host: %d %d\n", f(4), twice(5));
  return 0;
}
