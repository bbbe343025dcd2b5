// A classic CUDA program, written as anyone would: no simtlab-specific code.
// `simt exec examples/classic_reduce.cu` runs it on the simulator unchanged.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
  do {                                                                      \
    cudaError_t err = (call);                                               \
    if (err != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err),  \
              __FILE__, __LINE__);                                          \
      exit(1);                                                              \
    }                                                                       \
  } while (0)

// Block-level sum: shared-memory tree, then warp shuffles, one atomicAdd per block.
__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[256];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = (i < n) ? in[i] : 0.0f;
  partial[tid] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= 32; s >>= 1) {
    if (tid < s) partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    float x = partial[tid];
    for (int off = 16; off > 0; off >>= 1) x += __shfl_down_sync(0xffffffff, x, off);
    if (tid == 0) atomicAdd(out, x);
  }
}

// float4 loads: one 16-byte access per thread.
__global__ void scale4(const float4* in, float4* out, float a, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    v.x *= a; v.y *= a; v.z *= a; v.w *= a;
    out[i] = v;
  }
}

// Dynamic shared memory and a double accumulator.
__global__ void dot_double(const float* a, const float* b, double* out, int n) {
  extern __shared__ double acc[];
  double s = 0.0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += (double)a[i] * b[i];
  acc[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    double t = 0.0;
    for (int k = 0; k < blockDim.x; ++k) t += acc[k];
    *out = t;
  }
}

int main() {
  const int n = 1 << 14;
  float* h = (float*)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) h[i] = (i % 17) * 0.25f - 2.0f;

  float *d_in, *d_out, *d_sum;
  double* d_dot;
  CHECK(cudaMalloc(&d_in, n * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sum, sizeof(float)));
  CHECK(cudaMalloc(&d_dot, sizeof(double)));
  CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_sum, 0, sizeof(float)));

  block_sum<<<(n + 255) / 256, 256>>>(d_in, d_sum, n);
  CHECK(cudaGetLastError());
  scale4<<<(n / 4 + 127) / 128, 128>>>((const float4*)d_in, (float4*)d_out, 2.0f, n / 4);
  dot_double<<<1, 128, 128 * sizeof(double)>>>(d_in, d_in, d_dot, n);
  CHECK(cudaDeviceSynchronize());

  float sum = 0, first[4];
  double dot = 0;
  CHECK(cudaMemcpy(&sum, d_sum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(first, d_out, sizeof(first), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&dot, d_dot, sizeof(double), cudaMemcpyDeviceToHost));
  printf("sum = %.2f\n", sum);
  printf("scaled = %.2f %.2f %.2f %.2f\n", first[0], first[1], first[2], first[3]);
  printf("dot = %.4f\n", dot);

  cudaFree(d_in); cudaFree(d_out); cudaFree(d_sum); cudaFree(d_dot);
  free(h);
  return 0;
}
