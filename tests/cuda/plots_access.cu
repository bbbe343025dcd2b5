// Three access patterns for the pictures of plots/access_pattern.py and
// plots/bank_map.py (ctest plots_access): a coalesced and a strided global load,
// and a shared tile read by columns. Plain CUDA: runs under `simt exec` and nvcc.
// The line numbers of the three reads are the test's: keep them where they are.
#include <cstdio>
#include <vector>

__global__ void coalesced(const float* a, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];  // line 10: lane k reads a[k]
}

__global__ void strided(const float* a, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i * 32];  // line 15: lane k reads a[32 k]
}

__global__ void columns(const float* a, float* out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];  // line 22: a column
}

int main() {
  const int n = 64 * 32;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = float(i % 97);
  float *a, *out;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  coalesced<<<1, 64>>>(a, out);
  strided<<<1, 64>>>(a, out);
  columns<<<1, dim3(32, 32)>>>(a, out);
  cudaMemcpy(h.data(), out, 32 * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("out[1] = %g\n", h[1]);
  cudaFree(a);
  cudaFree(out);
  return 0;
}
