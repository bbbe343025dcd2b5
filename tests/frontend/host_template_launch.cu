// A kernel template launched from a host template, for float and double.
#include <cstdio>
#include <cuda_runtime.h>

template <class T>
__global__ void axpy(T a, const T* x, T* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

template <class T>
T run(int n) {
  T *x, *y;
  cudaMalloc(&x, n * sizeof(T));
  cudaMalloc(&y, n * sizeof(T));
  T* h = new T[n];
  for (int i = 0; i < n; ++i) h[i] = T(i);
  cudaMemcpy(x, h, n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, n * sizeof(T), cudaMemcpyHostToDevice);
  axpy<T><<<(n + 127) / 128, 128>>>(T(2), x, y, n);
  cudaMemcpy(h, y, n * sizeof(T), cudaMemcpyDeviceToHost);
  T last = h[n - 1];
  delete[] h;
  return last;
}

int main() {
  // Two statements: the order of a call's arguments is unspecified (g++ and nvcc's
  // host compiler run the last first, clang the first), and `simt validate`
  // compares launches in order.
  float last_float = run<float>(1024);
  double last_double = run<double>(512);
  printf("%.1f %.1f\n", double(last_float), last_double);
  return 0;
}
