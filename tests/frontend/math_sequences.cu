// Divisions, square roots and math functions are counted as the FP32/FP64
// instructions nvcc emits for them (measured on the H200 with --fmad=false:
// tests/cuda/math_sequences_main.cu). 64 threads, one operation each.
#include <cmath>
#include <cstdio>

__global__ void quotient(const float* x, const float* y, float* out) { out[threadIdx.x] = x[threadIdx.x] / y[threadIdx.x]; }
__global__ void reciprocal(const float* x, float* out) { out[threadIdx.x] = 1.0f / x[threadIdx.x]; }
__global__ void root(const float* x, float* out) { out[threadIdx.x] = sqrtf(x[threadIdx.x]); }
__global__ void exponential(const float* x, float* out) { out[threadIdx.x] = expf(x[threadIdx.x]); }
__global__ void hyperbolic(const float* x, float* out) { out[threadIdx.x] = tanhf(x[threadIdx.x]); }
__global__ void fast_exponential(const float* x, float* out) { out[threadIdx.x] = __expf(x[threadIdx.x]); }
__global__ void double_root(const float* x, float* out) { out[threadIdx.x] = float(sqrt(double(x[threadIdx.x]))); }
// Double operands: a quotient of two floats widened to double would be narrowed back to
// a float division, by nvcc as by clang.
__global__ void double_quotient(const double* x, const double* y, double* out) { out[threadIdx.x] = x[threadIdx.x] / y[threadIdx.x]; }
__global__ void double_reciprocal(const double* x, double* out) { out[threadIdx.x] = 1.0 / x[threadIdx.x]; }

int main() {
  float h[64];
  for (int i = 0; i < 64; ++i) h[i] = 0.5f + i * 0.25f;
  float *x, *y, *out;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&y, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(y, h, sizeof h, cudaMemcpyHostToDevice);
  quotient<<<1, 64>>>(x, y, out);
  reciprocal<<<1, 64>>>(x, out);
  root<<<1, 64>>>(x, out);
  exponential<<<1, 64>>>(x, out);
  hyperbolic<<<1, 64>>>(x, out);
  fast_exponential<<<1, 64>>>(x, out);
  double_root<<<1, 64>>>(x, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  double d[64];
  for (int i = 0; i < 64; ++i) d[i] = 0.5 + i * 0.25;
  double *dx, *dout;
  cudaMalloc(&dx, sizeof d);
  cudaMalloc(&dout, sizeof d);
  cudaMemcpy(dx, d, sizeof d, cudaMemcpyHostToDevice);
  double_quotient<<<1, 64>>>(dx, dx, dout);
  double_reciprocal<<<1, 64>>>(dx, dout);
  cudaMemcpy(d, dout, sizeof d, cudaMemcpyDeviceToHost);
  printf("%.4f %.6f\n", h[63], d[63]);
  return 0;
}
