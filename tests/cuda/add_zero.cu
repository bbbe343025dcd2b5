// Which additions of zero (and multiplications by one) nvcc removes. Its PTX
// (nvcc 13, -O2 --fmad=false, sm_90) keeps `x + 0.0f` for a loaded x, a product, a
// |x|, a root; it removes x * 1, x - 0, x + (-0) and a converted integer + 0, which
// can never be -0. The SASS of the H200 build executes one FADD per kept addition.
// tests/frontend/test_frontend.cpp counts each kernel here against that.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k_lerp(float* o, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) o[i] = 0.0f + 1000.0f * (float(i) / 16383.0f); }
__global__ void k_loaded(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] + 0.0f; }
__global__ void k_int(float* o) { int i = threadIdx.x; o[i] = float(i) + 0.0f; }
__global__ void k_uint(float* o) { unsigned i = threadIdx.x; o[i] = float(i) + 0.0f; }
__global__ void k_square(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] * x[i] + 0.0f; }
__global__ void k_fabs(float* o, const float* x) { int i = threadIdx.x; o[i] = fabsf(x[i]) + 0.0f; }
__global__ void k_scaled(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] * 2.0f + 0.0f; }
__global__ void k_int_scaled(float* o) { int i = threadIdx.x; o[i] = float(i) * 3.0f + 0.0f; }
__global__ void k_int_div(float* o) { int i = threadIdx.x; o[i] = float(i) / 7.0f + 0.0f; }
__global__ void k_sqrt(float* o, const float* x) { int i = threadIdx.x; o[i] = sqrtf(x[i]) + 0.0f; }
__global__ void k_negzero(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] + -0.0f; }
__global__ void k_sum(float* o, const float* x) { int i = threadIdx.x; o[i] = (x[i] + 1.0f) + 0.0f; }
__global__ void k_const_left(float* o, const float* x) { int i = threadIdx.x; o[i] = 0.0f + x[i]; }
__global__ void k_sub_zero(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] - 0.0f; }
__global__ void k_mul_one(float* o, const float* x) { int i = threadIdx.x; o[i] = x[i] * 1.0f; }
__global__ void k_exp(float* o, const float* x) { int i = threadIdx.x; o[i] = __expf(x[i]) + 0.0f; }

int main() {
  float *o, *x;
  cudaMalloc(&o, 32 * sizeof(float));
  cudaMalloc(&x, 32 * sizeof(float));
  cudaMemset(x, 0, 32 * sizeof(float));
  k_lerp<<<1, 32>>>(o, 32);
  k_loaded<<<1, 32>>>(o, x);
  k_int<<<1, 32>>>(o);
  k_uint<<<1, 32>>>(o);
  k_square<<<1, 32>>>(o, x);
  k_fabs<<<1, 32>>>(o, x);
  k_scaled<<<1, 32>>>(o, x);
  k_int_scaled<<<1, 32>>>(o);
  k_sum<<<1, 32>>>(o, x);
  k_const_left<<<1, 32>>>(o, x);
  k_sub_zero<<<1, 32>>>(o, x);
  k_mul_one<<<1, 32>>>(o, x);
  k_negzero<<<1, 32>>>(o, x);
  float h[32];
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.1f\n", h[3]);
  return 0;
}
