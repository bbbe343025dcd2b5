#include <cstdio>
__global__ void fetch(cudaTextureObject_t t, float* out) {  // line 2
  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}
int main() {
  float* d;
  cudaMalloc(&d, 32 * sizeof(float));
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = d;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = 32 * sizeof(float);
  cudaTextureDesc td = {};
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &td, nullptr);
  fetch<<<1, 32>>>(t, d);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
