// Launches C++ resolves from the call, as nvcc does: a kernel template whose
// arguments are deduced (`scale<<<...>>>(x, 2.0f, n)`, llm.c's norm_kernel1), and a
// kernel overloaded by a host function of the same name (llm.c's gelu_backward1),
// and NULL as a pointer argument. Prints "6 12 9 ok".
#include <cstdio>

template <class T>
__global__ void scale(T* x, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

__global__ void add_one(float* x, const float* unused, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && unused == nullptr) x[i] += 1.0f;
}
// A host function with the kernel's name, as llm.c writes its launchers.
void add_one(float* x, int n) { add_one<<<1, 32>>>(x, NULL, n); }

int main() {
  float* f;
  double* d;
  cudaMalloc(&f, 32 * sizeof(float));
  cudaMalloc(&d, 32 * sizeof(double));
  float hf[32];
  double hd[32];
  for (int i = 0; i < 32; ++i) hf[i] = 3, hd[i] = 3;
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
  scale<<<1, 32>>>(f, 2.0f, 32);  // scale<float>
  scale<<<1, 32>>>(d, 4.0, 32);   // scale<double>
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  printf("%g %g ", hf[0], hd[0]);
  cudaMemcpy(f, hf, sizeof hf, cudaMemcpyHostToDevice);
  add_one(f, 32);
  add_one(f, 32);
  add_one(f, 32);
  cudaMemcpy(hf, f, sizeof hf, cudaMemcpyDeviceToHost);
  printf("%g %s\n", hf[31], cudaGetLastError() == cudaSuccess ? "ok" : "error");
  return 0;
}
