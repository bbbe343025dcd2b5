// The fast-math functions' out-of-range paths: nvcc 13 adds predicated FMULs when
// __expf's scaled argument is below -126, when __fdividef's divisor or rsqrtf's
// argument is below FLT_MIN. Each launch puts a few lanes of one warp on that path.
#include <cstdio>

__global__ void exp_masked(const float* x, float* y) { y[threadIdx.x] = __expf(x[threadIdx.x]); }
__global__ void divide_tiny(const float* x, float* y) { y[threadIdx.x] = __fdividef(1.0f, x[threadIdx.x]); }
__global__ void rsqrt_zero(const float* x, float* y) { y[threadIdx.x] = rsqrtf(x[threadIdx.x]); }

int main() {
  float h[3][32];
  for (int i = 0; i < 32; ++i) {
    h[0][i] = i < 8 ? -1e8f : 0.5f * float(i);  // 8 masked lanes
    h[1][i] = i < 2 ? 1e-39f : float(i);         // 2 denormal divisors
    h[2][i] = i < 4 ? 0.0f : float(i);           // 4 zeros
  }
  float *x, *y;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&y, 32 * sizeof(float));
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  exp_masked<<<1, 32>>>(x, y);
  divide_tiny<<<1, 32>>>(x + 32, y);
  rsqrt_zero<<<1, 32>>>(x + 64, y);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
