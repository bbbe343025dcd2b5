// A CPU reference parallelised with OpenMP, as llm.c's matmul_forward and
// matmul_backward write theirs: the host loop runs on every core (simt builds a file
// with `#pragma omp` with -fopenmp), the kernel on the simulator as always.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void square(float* out, const float* in) { out[threadIdx.x] = in[threadIdx.x] * in[threadIdx.x]; }

int main() {
  const int n = 256;
  float h[n], ref[n];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  double sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; ++i) {
    ref[i] = h[i] * h[i];
    sum += ref[i];
  }
  float *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  square<<<1, n>>>(out, in);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int same = 0;
  for (int i = 0; i < n; ++i) same += h[i] == ref[i];
#ifdef _OPENMP
  const char* openmp = "openmp";
#else
  const char* openmp = "no openmp";
#endif
  printf("%s sum %.0f same %d\n", openmp, sum, same);
  return 0;
}
