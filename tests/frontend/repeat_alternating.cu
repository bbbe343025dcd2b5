// Launches that alternate (a benchmark repeating a residual kernel and then a kernel
// reading its result, as llm.c's fused_residual_forward does): a repeat of a launch a
// few launches back is skipped when nothing since wrote what it read or wrote. A
// launch that wrote its input (an in-place bump) or overwrote its output (a fill) in
// between makes it run again.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(float* res, const float* x, const float* y) { res[threadIdx.x] = x[threadIdx.x] + y[threadIdx.x]; }
__global__ void twice(float* out, const float* in) { out[threadIdx.x] = 2.0f * in[threadIdx.x]; }
__global__ void triple(float* t, const float* x) { t[threadIdx.x] = 3.0f * x[threadIdx.x]; }
__global__ void bump(float* x) { x[threadIdx.x] += 1.0f; }
__global__ void fill(float* o, float v) { o[threadIdx.x] = v; }

int main() {
  const int n = 256;
  float hx[n], hy[n];
  for (int i = 0; i < n; ++i) hx[i] = float(i), hy[i] = 100.0f + i;
  float *x, *y, *res, *out, *t, *out2;
  for (float** p : {&x, &y, &res, &out, &t, &out2}) cudaMalloc(p, n * sizeof(float));
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 3; ++rep) {  // launches 1-6: 3 and 5 repeat 1, 4 and 6 repeat 2
    add<<<1, n>>>(res, x, y);
    twice<<<1, n>>>(out, res);
  }
  for (int rep = 0; rep < 2; ++rep) {  // launches 7-10: bump writes what triple read
    triple<<<1, n>>>(t, x);
    bump<<<1, n>>>(x);
  }
  twice<<<1, n>>>(out2, y);  // launches 11-13: fill overwrites what twice wrote
  fill<<<1, n>>>(out2, 7.0f);
  twice<<<1, n>>>(out2, y);
  float o[n], ht[n], o2[n];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(ht, t, sizeof ht, cudaMemcpyDeviceToHost);
  cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost);
  cudaMemcpy(o2, out2, sizeof o2, cudaMemcpyDeviceToHost);
  printf("out %.1f t %.1f x %.1f out2 %.1f\n", o[5], ht[5], hx[5], o2[5]);
  return 0;
}
