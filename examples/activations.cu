// Transcendental-heavy kernels, written as plain CUDA: GELU (erf and tanh forms),
// a row softmax, LayerNorm and log-sigmoid. Under `simt exec` the math calls return
// the H200's own bits (sim/math), so the output bits printed here are the same on
// the simulator and on a GPU (compare the hashes).
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

__global__ void gelu_erf(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];  // one load: nvcc would merge two reads of x[i] anyway
    y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
  }
}

__global__ void gelu_tanh(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanhf(0.79788456f * (v + 0.044715f * v * v * v)));
  }
}

__global__ void log_sigmoid(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = -logf(1.0f + __expf(-x[i]));
}

// One block of 128 threads per row: max, then sum of exponentials, in shared memory.
__global__ void softmax_rows(const float* x, float* y, int cols) {
  __shared__ float red[128];
  const float* row = x + blockIdx.x * cols;
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) sum += expf(row[c] - m);
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  sum = red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[blockIdx.x * cols + c] = __fdividef(expf(row[c] - m), sum);
}

// One warp per row: mean and variance by shuffles, then rsqrtf.
__global__ void layer_norm(const float* x, float* y, int cols) {
  const float* row = x + blockIdx.x * cols;
  float s = 0.0f, s2 = 0.0f;
  for (int c = threadIdx.x; c < cols; c += 32) {
    float v = row[c];
    s += v;
    s2 += v * v;
  }
  for (int off = 16; off > 0; off >>= 1) {
    s += __shfl_xor_sync(0xffffffff, s, off);
    s2 += __shfl_xor_sync(0xffffffff, s2, off);
  }
  float mean = s / cols;
  float inv = rsqrtf(s2 / cols - mean * mean + 1e-5f);
  for (int c = threadIdx.x; c < cols; c += 32) y[blockIdx.x * cols + c] = (row[c] - mean) * inv;
}

// FNV-1a over the output bits: equal hashes mean bit-identical outputs.
static uint64_t hash_bits(const std::vector<float>& v) {
  uint64_t h = 1469598103934665603ull;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(float); ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

int main() {
  const int rows = 64, cols = 256, n = rows * cols;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = ((i * 7919) % 4001 - 2000) / 250.0f;  // [-8, 8]
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  const char* names[] = {"gelu_erf", "gelu_tanh", "log_sigmoid", "softmax_rows", "layer_norm"};
  for (int k = 0; k < 5; ++k) {
    switch (k) {
      case 0: gelu_erf<<<n / 256, 256>>>(dx, dy, n); break;
      case 1: gelu_tanh<<<n / 256, 256>>>(dx, dy, n); break;
      case 2: log_sigmoid<<<n / 256, 256>>>(dx, dy, n); break;
      case 3: softmax_rows<<<rows, 128>>>(dx, dy, cols); break;
      case 4: layer_norm<<<rows, 32>>>(dx, dy, cols); break;
    }
    cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%-12s hash %016llx  y[1] = %a  y[777] = %a\n", names[k], (unsigned long long)hash_bits(y), y[1], y[777]);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("status: %s\n", cudaGetErrorString(e));
  cudaFree(dx);
  cudaFree(dy);
  return e == cudaSuccess ? 0 : 1;
}
