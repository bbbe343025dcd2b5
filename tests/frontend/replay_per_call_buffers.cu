// A launcher that allocates its temporaries on every call and updates them in place
// (the pattern of llm.c's naive flash attention, attention_forward kernel 2): each
// call mallocs q and a running maximum m, sets m with cudaMemset, fills q, folds q
// into m and the output in place, copies a result out with cudaMemcpy and frees
// everything. A benchmark calls it again and again.
//   - the freed ranges are handed out again, so every call's launches have the same
//     arguments as the last call's;
//   - `fold` reads what it writes, so no call of it is a pure repeat; but from the
//     third call on its inputs hold the bytes they held before the second call's run,
//     so that run's outputs are written back instead (sim/shortcuts/content_memo.hpp);
//   - a __constant__ write between calls changes what the kernels read without
//     touching global memory: the next call runs.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float bias;

__global__ void fill(float* q, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) q[i] = in[(i * 7) % n] + bias;
}

// In place: m is read, then written.
__global__ void fold(float* m, float* out, const float* q, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float mi = m[i];
    mi = mi > q[i] ? mi : q[i];
    m[i] = mi;
    out[i] = 2.0f * mi - q[i];
  }
}

void call(float* out, float* result, const float* in, int n, int block, void** first_q) {
  float *q, *m;
  cudaMalloc(&q, n * sizeof(float));
  cudaMalloc(&m, n * sizeof(float));
  cudaMemset(m, 0, n * sizeof(float));
  fill<<<(n + block - 1) / block, block>>>(q, in, n);
  fold<<<(n + block - 1) / block, block>>>(m, out, q, n);
  cudaMemcpy(result, m, n * sizeof(float), cudaMemcpyDeviceToDevice);
  if (!*first_q) *first_q = q;
  if (q != *first_q) std::printf("q moved: the freed range was not handed out again\n");
  cudaFree(q);
  cudaFree(m);
}

int main() {
  const int n = 4096;
  float h[n];
  for (int i = 0; i < n; ++i) h[i] = float(i % 97) - 40.0f;
  float *in, *out, *result;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMalloc(&result, n * sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  const float b = 0.5f;
  cudaMemcpyToSymbol(bias, &b, sizeof b);

  void* first_q = nullptr;
  for (int block : {128, 256})
    for (int call_number = 0; call_number < 4; ++call_number) call(out, result, in, n, block, &first_q);  // 1-16
  const float b2 = 1.5f;
  cudaMemcpyToSymbol(bias, &b2, sizeof b2);
  for (int call_number = 0; call_number < 2; ++call_number) call(out, result, in, n, 256, &first_q);  // 17-20

  float o[n], r[n];
  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);
  cudaMemcpy(r, result, sizeof r, cudaMemcpyDeviceToHost);
  double so = 0, sr = 0;
  for (int i = 0; i < n; ++i) so += o[i], sr += r[i];
  std::printf("out %.1f result %.1f\n", so, sr);
  return 0;
}
