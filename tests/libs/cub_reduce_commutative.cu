// cub::BlockReduce with BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY on planted floats whose
// sum depends on the order, against a CPU model of CUB 13's order for 256 threads:
// threads 32..255 place their values in a raking grid of 224 (segments of 7),
// thread t < 32 tree-reduces [x_t, its segment], then the warp reduces by shuffles.
// (Written from CUB's source; not yet run on the GPU.)
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kBlock = 256;

__global__ void reduce(const float* in, float* out) {
  using BlockReduce = cub::BlockReduce<float, kBlock, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>;
  __shared__ typename BlockReduce::TempStorage temp;
  const float x = in[threadIdx.x];
  const float s = BlockReduce(temp).Sum(x);
  __syncthreads();
  const float m = BlockReduce(temp).Reduce(x, cuda::maximum<>{});
  if (threadIdx.x == 0) { out[0] = s; out[1] = m; }
}

static float warp_model(std::vector<float> v) {
  for (int off = 1; off < 32; off *= 2) {
    std::vector<float> next = v;
    for (int lane = 0; lane + off < 32; ++lane) next[lane] = v[lane] + v[lane + off];
    v = next;
  }
  return v[0];
}

int main() {
  std::vector<float> x(kBlock);
  unsigned s = 99;
  for (auto& v : x) {
    s = s * 1664525u + 1013904223u;
    v = ((s & 1) ? -1.0f : 1.0f) * (1.0f + float(s >> 9) / 8388608.0f) * float(1u << ((s >> 3) % 20));
  }
  float *d_in, *d_out;
  cudaMalloc(&d_in, kBlock * 4);
  cudaMalloc(&d_out, 8);
  cudaMemcpy(d_in, x.data(), kBlock * 4, cudaMemcpyHostToDevice);
  reduce<<<1, kBlock>>>(d_in, d_out);
  float got[2];
  cudaMemcpy(got, d_out, 8, cudaMemcpyDeviceToHost);
  std::vector<float> partial(32);
  float max = x[0];
  for (float v : x) max = max < v ? v : max;
  for (int t = 0; t < 32; ++t) {
    float a[8] = {x[t]};
    for (int i = 0; i < 7; ++i) a[i + 1] = x[32 + 7 * t + i];
    partial[t] = ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7]));
  }
  const float want = warp_model(partial);
  const bool ok = std::memcmp(&got[0], &want, 4) == 0 && got[1] == max;
  unsigned bits;
  std::memcpy(&bits, &got[0], 4);
  printf("BlockReduce RAKING_COMMUTATIVE_ONLY Sum %.9g (0x%08x), max %g: %s\n", got[0], bits, got[1],
         ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
