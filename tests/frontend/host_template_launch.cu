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
  printf("%.1f %.1f\n", double(run<float>(1024)), run<double>(512));
  return 0;
}
