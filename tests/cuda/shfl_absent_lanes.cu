// What __shfl_down_sync(0xffffffff, ...) returns on the H200 when the source lane is
// not there: exited, or alive but on the other side of a branch. The answer (0) is what
// the simulator gives: docs/validation/llmc-default-sizes.md.
#include <cstdio>
__global__ void exited(float* out, int mode) {
  int lane = threadIdx.x;
  float v = 100.0f + lane;
  if (mode == 0 && lane % 4 != 0) return;                    // sources exited
  if (mode == 1 && lane % 4 != 0) { out[64 + lane] = v; return; }  // wrote, then exited
  v += __shfl_down_sync(0xffffffff, v, 1, 4);
  out[lane] = v;
}
__global__ void diverged(float* out) {
  int lane = threadIdx.x;
  float v = 100.0f + lane;
  if (lane % 4 == 0) {
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
  } else {
    v *= 2.0f;
  }
  out[lane] = v;
}
__global__ void exited_loop(float* out, int n) {  // the matmul_backward_bias kernel-8 shape
  int lane = threadIdx.x;
  float a = 0.f;
  for (int r = lane % 4; r < n; r += 4) {
    float v = 1000.0f * (r + 1) + lane;
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
    v += __shfl_down_sync(0xffffffff, v, 2, 4);
    a += v;
  }
  out[lane] = a;
}
int main() {
  float* d; cudaMalloc(&d, 128 * 4);
  float h[128];
  const char* names[] = {"exited", "exited after store", "diverged", "loop n=1", "loop n=2"};
  for (int m = 0; m < 5; ++m) {
    cudaMemset(d, 0, 128 * 4);
    if (m < 2) exited<<<1, 32>>>(d, m);
    else if (m == 2) diverged<<<1, 32>>>(d);
    else exited_loop<<<1, 32>>>(d, m - 2);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 128 * 4, cudaMemcpyDeviceToHost);
    std::printf("%-20s %s:", names[m], cudaGetErrorString(e));
    for (int i = 0; i < 32; ++i) std::printf(" %g", h[i]);
    std::printf("\n");
  }
}
