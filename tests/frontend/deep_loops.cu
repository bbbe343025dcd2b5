// Which loops nvcc unrolls 16 deep (the site records' kSiteLoopDeep, the global_sites'
// `deep`): a branch-free innermost loop with a small body and a trip count no small
// constant bounds (a warp summing its row: 12 to 16 loads out before the first use in
// the SASS), but not one with a large body, nor a tile copy inside a loop with
// barriers (a few elements a thread between two barriers), which the kernel time
// model reads (cost/kernel/kernel_terms.cpp, deep_iterations).
#include <cstdio>

// A warp sums its row: one load and one add a step.
__global__ void row_sum(const float* x, float* out, int cols) {
  float sum = 0.0f;
  for (int j = threadIdx.x; j < cols; j += 32) sum += x[j];
  out[threadIdx.x] = sum;
}

// The same walk with a long chain of arithmetic a step: nvcc keeps it 4 deep.
__global__ void row_poly(const float* x, float* out, int cols) {
  float sum = 0.0f;
  for (int j = threadIdx.x; j < cols; j += 32) {
    const float v = x[j];
    float p = v;
    for (int k = 0; k < 12; ++k) p = p * v + float(k);  // unrolled: 12 FMUL + 12 FADD
    sum += p;
  }
  out[threadIdx.x] = sum;
}

// A tile copy between barriers inside a k loop.
__global__ void tile_steps(const float* a, float* out, int steps, int per_thread) {
  __shared__ float tile[256];
  float acc = 0.0f;
  for (int k = 0; k < steps; ++k) {
    for (int i = threadIdx.x; i < per_thread * 32; i += 32) tile[i] = a[k * 256 + i];
    __syncthreads();
    acc += tile[(threadIdx.x * 7) % 256];
    __syncthreads();
  }
  out[threadIdx.x] = acc;
}

int main() {
  const int cols = 1024;
  float *x, *out;
  cudaMalloc(&x, 8 * cols * sizeof(float));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(x, 0, 8 * cols * sizeof(float));
  row_sum<<<1, 32>>>(x, out, cols);
  row_poly<<<1, 32>>>(x, out, cols);
  tile_steps<<<1, 32>>>(x, out, 8, 8);
  float r;
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
