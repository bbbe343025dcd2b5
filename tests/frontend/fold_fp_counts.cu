// FP operations counted through their block's record (sim/compiler/pass/fold_fp_counts.cpp)
// must count exactly what separate counts did: loops whose trip count differs per
// lane (the warp-level count is the busiest lane's), divergent branches, an unrolled
// body (one site, several copies per block), an early exit, and a double.
#include <cstdio>

__global__ void per_lane_trips(const float* x, float* y) {
  float acc = 0.0f;
  for (int i = 0; i < int(threadIdx.x % 32); ++i) acc = fmaf(x[i], acc, 0.5f) * 1.5f;
  y[threadIdx.x] = acc;
}

__global__ void branches(const float* x, float* y) {
  float v = x[threadIdx.x];
  if (threadIdx.x % 3 == 0) v = v * 3.0f + 1.0f;
  else v = v - 2.0f;
  y[threadIdx.x] = v;
}

__global__ void unrolled(const float* x, float* y) {
  float acc = 0.0f;
#pragma unroll 4
  for (int i = 0; i < 16; ++i) acc += x[i] * 0.25f;
  y[threadIdx.x] = acc;
}

__global__ void early_exit(const float* x, float* y, int n) {
  if (int(threadIdx.x) >= n) return;
  y[threadIdx.x] = x[threadIdx.x] * x[threadIdx.x] + 0.75f;
}

__global__ void doubles(const double* x, double* y) {
  double acc = 0.0;
  for (int i = 0; i < 8; ++i) acc = acc * 0.5 + x[i];
  y[threadIdx.x] = acc;
}

int main() {
  float *x, *y;
  double *dx, *dy;
  cudaMalloc(&x, 64 * sizeof(float));
  cudaMalloc(&y, 64 * sizeof(float));
  cudaMalloc(&dx, 64 * sizeof(double));
  cudaMalloc(&dy, 64 * sizeof(double));
  float hx[64];
  double hd[64];
  for (int i = 0; i < 64; ++i) hx[i] = hd[i] = 0.125 * i;
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, hd, sizeof hd, cudaMemcpyHostToDevice);
  per_lane_trips<<<1, 64>>>(x, y);
  branches<<<1, 64>>>(x, y);
  unrolled<<<1, 64>>>(x, y);
  early_exit<<<1, 64>>>(x, y, 40);
  doubles<<<1, 64>>>(dx, dy);
  float hy[64];
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dy, sizeof hd, cudaMemcpyDeviceToHost);
  printf("%g %g %g\n", hy[0], hy[39], hd[63]);
}
