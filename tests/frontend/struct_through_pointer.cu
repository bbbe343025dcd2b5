// A struct of floats read through a pointer, and operator[] on a device struct.
#include <cstdio>
#include <cuda_runtime.h>

struct Particle {
  float x, y, z;
};

struct View {
  float* data;
  int stride;
  __device__ float& operator[](int i) { return data[i * stride]; }
};

__global__ void norms(const Particle* p, View out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const Particle* q = p + i;
    out[i] = q->x * q->x + q->y * q->y + q->z * q->z;
  }
}

int main() {
  const int n = 1024;
  Particle h[n];
  for (int i = 0; i < n; ++i) h[i] = {float(i), 1.0f, 2.0f};
  Particle* p;
  float* o;
  cudaMalloc(&p, sizeof h);
  cudaMalloc(&o, n * sizeof(float));
  cudaMemcpy(p, h, sizeof h, cudaMemcpyHostToDevice);
  norms<<<n / 256, 256>>>(p, View{o, 1}, n);
  float r[n];
  cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
  printf("r[3] = %.1f\n", r[3]);
  return 0;
}
