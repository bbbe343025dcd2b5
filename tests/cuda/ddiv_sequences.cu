// Double division and double reciprocal with double operands (not narrowed to float).
#include <cstdio>
#include <vector>
__global__ void op_ddiv_d(const double* x, const double* y, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = x[i] / y[i];
}
__global__ void op_drcp_d(const double* x, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0 / x[i];
}
__global__ void op_dsqrt_d(const double* x, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = sqrt(x[i]);
}
int main() {
  const int n = 32768;
  std::vector<double> x(n), y(n);
  for (int i = 0; i < n; ++i) { x[i] = 0.37 + i * 1.7e-3; y[i] = 1.3 + (i % 977) * 0.011; }
  double *dx, *dy, *dout;
  cudaMalloc(&dx, n * 8); cudaMalloc(&dy, n * 8); cudaMalloc(&dout, n * 8);
  cudaMemcpy(dx, x.data(), n * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * 8, cudaMemcpyHostToDevice);
  op_ddiv_d<<<256, 128>>>(dx, dy, dout);
  op_drcp_d<<<256, 128>>>(dx, dout);
  op_dsqrt_d<<<256, 128>>>(dx, dout);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("%d calls per kernel: %s\n", n, cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
