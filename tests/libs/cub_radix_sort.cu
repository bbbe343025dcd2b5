// cub::BlockRadixSort on planted keys: floats with both zeros (interleaved), duplicates and
// negatives (with their index as the value, so stability shows), descending order,
// unsigned keys sorted on a bit range, and the blocked-to-striped output. Each
// result is checked against a CPU model: a stable sort of the keys by CUB's
// twiddled bits (what any stable radix sort, CUB's included, gives).
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kThreads = 128, kItems = 4, kTile = kThreads * kItems;

__global__ void sort_pairs(float* keys, int* values, bool descending) {
  using Sort = cub::BlockRadixSort<float, kThreads, kItems, int>;
  __shared__ typename Sort::TempStorage temp;
  float k[kItems];
  int v[kItems];
  for (int i = 0; i < kItems; ++i) { k[i] = keys[threadIdx.x * kItems + i]; v[i] = values[threadIdx.x * kItems + i]; }
  if (descending) Sort(temp).SortDescending(k, v);
  else Sort(temp).Sort(k, v);
  for (int i = 0; i < kItems; ++i) { keys[threadIdx.x * kItems + i] = k[i]; values[threadIdx.x * kItems + i] = v[i]; }
}
__global__ void sort_bits_striped(unsigned* keys, int begin_bit, int end_bit) {
  using Sort = cub::BlockRadixSort<unsigned, kThreads, kItems>;
  __shared__ typename Sort::TempStorage temp;
  unsigned k[kItems];
  for (int i = 0; i < kItems; ++i) k[i] = keys[threadIdx.x * kItems + i];
  Sort(temp).SortBlockedToStriped(k, begin_bit, end_bit);
  for (int i = 0; i < kItems; ++i) keys[i * kThreads + threadIdx.x] = k[i];  // striped out: tile order
}

// CUB reads -0.0 as +0.0 when it ranks (ProcessFloatMinusZero): the two are equal
// keys, kept in input order, and each keeps its own bits.
static unsigned twiddle(float f, bool descending) {
  if (f == 0.0f) f = 0.0f;
  unsigned b;
  std::memcpy(&b, &f, 4);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return descending ? ~b : b;
}

int main() {
  std::vector<float> keys(kTile);
  std::vector<int> values(kTile);
  unsigned s = 7;
  for (int i = 0; i < kTile; ++i) {
    s = s * 1664525u + 1013904223u;
    keys[i] = float(int(s >> 24) % 23 - 11) * 0.5f;  // many duplicates, both signs
    values[i] = i;
  }
  keys[3] = -0.0f;
  keys[10] = 0.0f;
  keys[20] = -0.0f;
  int failures = 0;
  for (int descending = 0; descending < 2; ++descending) {
    float* dk;
    int* dv;
    cudaMalloc(&dk, kTile * 4);
    cudaMalloc(&dv, kTile * 4);
    cudaMemcpy(dk, keys.data(), kTile * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(dv, values.data(), kTile * 4, cudaMemcpyHostToDevice);
    sort_pairs<<<1, kThreads>>>(dk, dv, descending != 0);
    std::vector<float> gk(kTile);
    std::vector<int> gv(kTile);
    cudaMemcpy(gk.data(), dk, kTile * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(gv.data(), dv, kTile * 4, cudaMemcpyDeviceToHost);
    std::vector<int> order(kTile);
    for (int i = 0; i < kTile; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return twiddle(keys[a], descending) < twiddle(keys[b], descending); });
    bool ok = true;
    for (int i = 0; i < kTile; ++i) ok &= std::memcmp(&gk[i], &keys[order[i]], 4) == 0 && gv[i] == order[i];
    printf("BlockRadixSort pairs %s: %s (first %g value %d, last %g)\n", descending ? "descending" : "ascending",
           ok ? "ok" : "MISMATCH", gk[0], gv[0], gk[kTile - 1]);
    failures += !ok;
  }
  std::vector<unsigned> u(kTile);
  for (auto& x : u) { s = s * 1664525u + 1013904223u; x = s; }
  unsigned* du;
  cudaMalloc(&du, kTile * 4);
  cudaMemcpy(du, u.data(), kTile * 4, cudaMemcpyHostToDevice);
  sort_bits_striped<<<1, kThreads>>>(du, 8, 20);
  std::vector<unsigned> gu(kTile), want = u;
  cudaMemcpy(gu.data(), du, kTile * 4, cudaMemcpyDeviceToHost);
  std::stable_sort(want.begin(), want.end(), [](unsigned a, unsigned b) { return ((a >> 8) & 0xfff) < ((b >> 8) & 0xfff); });
  const bool ok = gu == want;
  printf("BlockRadixSort bits [8, 20) blocked-to-striped: %s\n", ok ? "ok" : "MISMATCH");
  failures += !ok;
  return failures ? 1 : 0;
}
