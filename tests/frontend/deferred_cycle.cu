// llm.c matmul_forward's benchmark in small: a product into `out`, then a bias added to
// `out` in place, repeated at several block sizes of the bias kernel, and nothing read
// back. The product's repeats are deferred behind the bias (it wrote their output), and
// a new block size is counted ahead of the queue; none of it has to run. Each new block
// size must not push the product out of the launches kept for repeats, or its next
// repeat would look new and make the whole queue run.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void product(float* out, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * a[i];
}
__global__ void add_bias(float* out, const float* bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += bias[i % 32];
}

int main() {
  const int n = 4096;
  float *out, *a, *bias;
  for (float** p : {&out, &a, &bias}) {
    cudaMalloc(p, n * sizeof(float));
    cudaMemset(*p, 0, n * sizeof(float));
  }
  for (int block : {32, 64, 128, 256, 512, 1024})
    for (int rep = 0; rep < 10; ++rep) {
      product<<<n / 256, 256>>>(out, a, n);
      add_bias<<<n / block, block>>>(out, bias, n);
    }
  for (float* p : {out, a, bias}) cudaFree(p);
  printf("done\n");
  return 0;
}
