// CUB's block and warp primitives on planted values whose float sums depend on
// the combining order. Each result is checked against a CPU model of CUDA 13
// CUB's order (printed "ok"/"MISMATCH") and printed as a hash of its bits, so the
// same file built by nvcc on a GPU and by simtlab must print the same lines
// (docs/validation/h200-cudalibs.md). One launch per primitive, so per-launch
// counters can be compared with Nsight Compute's.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

constexpr int kBlock = 256, kItems = 4, kBlocks = 2, kTile = kBlock * kItems;

__global__ void reduce_warp_reductions(const float* in, float* out) {
  using BlockReduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  float s = BlockReduce(temp).Sum(in[blockIdx.x * kBlock + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
__global__ void reduce_raking(const float* in, float* out) {
  using BlockReduce = cub::BlockReduce<float, kBlock, cub::BLOCK_REDUCE_RAKING>;
  __shared__ typename BlockReduce::TempStorage temp;
  float s = BlockReduce(temp).Sum(in[blockIdx.x * kBlock + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
// A bound (200 of 256 valid) and a max with CUDA 13's operator.
__global__ void reduce_partial_and_max(const float* in, float* out) {
  using BlockReduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  float x = in[blockIdx.x * kBlock + threadIdx.x];
  float partial = BlockReduce(temp).Sum(x, 200);
  __syncthreads();  // temp is reused
  float m = BlockReduce(temp).Reduce(x, cuda::maximum<>{});
  if (threadIdx.x == 0) { out[2 * blockIdx.x] = partial; out[2 * blockIdx.x + 1] = m; }
}
// A vectorized load (one 16-byte load per thread), the thread's items reduced as
// CUB's ThreadReduce does, and a vectorized store.
__global__ void load_vectorize(const float* in, float* copy, float* sums) {
  float items[kItems];
  cub::BlockLoad<float, kBlock, kItems, cub::BLOCK_LOAD_VECTORIZE>().Load(in + blockIdx.x * kTile, items);
  using BlockReduce = cub::BlockReduce<float, kBlock>;
  __shared__ typename BlockReduce::TempStorage temp;
  float s = BlockReduce(temp).Sum(items);
  if (threadIdx.x == 0) sums[blockIdx.x] = s;
  cub::BlockStore<float, kBlock, kItems, cub::BLOCK_STORE_VECTORIZE>().Store(copy + blockIdx.x * kTile, items);
}
template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void load_store(const float* in, float* out, float* firsts) {
  using Load = cub::BlockLoad<float, kBlock, kItems, L>;
  using Store = cub::BlockStore<float, kBlock, kItems, S>;
  __shared__ typename Load::TempStorage load_temp;
  __shared__ typename Store::TempStorage store_temp;
  float items[kItems];
  Load(load_temp).Load(in + blockIdx.x * kTile, items);
  firsts[blockIdx.x * kBlock + threadIdx.x] = items[0];  // which item a thread holds
  __syncthreads();
  Store(store_temp).Store(out + blockIdx.x * kTile, items);
}
__global__ void scans(const float* in, float* inc, float* exc, float* aggregates) {
  using BlockScan = cub::BlockScan<float, kBlock>;
  __shared__ typename BlockScan::TempStorage temp;
  const int i = blockIdx.x * kBlock + threadIdx.x;
  float a1, a2;
  BlockScan(temp).InclusiveSum(in[i], inc[i], a1);
  __syncthreads();
  BlockScan(temp).ExclusiveSum(in[i], exc[i], a2);
  if (threadIdx.x == 0) { aggregates[2 * blockIdx.x] = a1; aggregates[2 * blockIdx.x + 1] = a2; }
}
__global__ void warp_primitives(const float* in, float* wsum, float* wsum16, float* wscan) {
  using WarpReduce = cub::WarpReduce<float>;
  using WarpReduce16 = cub::WarpReduce<float, 16>;
  using WarpScan = cub::WarpScan<float>;
  __shared__ typename WarpReduce::TempStorage r[kBlock / 32];
  __shared__ typename WarpReduce16::TempStorage r16[kBlock / 16];
  __shared__ typename WarpScan::TempStorage sc[kBlock / 32];
  const int i = blockIdx.x * kBlock + threadIdx.x, warp = threadIdx.x / 32;
  const float x = in[i];  // read once (nvcc keeps it in a register either way)
  float s = WarpReduce(r[warp]).Sum(x);
  float s16 = WarpReduce16(r16[threadIdx.x / 16]).Sum(x);
  WarpScan(sc[warp]).InclusiveSum(x, wscan[i]);
  if (threadIdx.x % 32 == 0) wsum[i / 32] = s;
  if (threadIdx.x % 16 == 0) wsum16[i / 16] = s16;
}

// ---- CPU models of CUB's order (CUDA 13) ----
static float warp_reduce_model(const float* x, int width, int valid) {
  std::vector<float> v(x, x + width);
  for (int off = 1; off < width; off *= 2) {
    std::vector<float> next = v;
    for (int lane = 0; lane < width; ++lane)
      if (lane + off <= valid - 1) next[lane] = v[lane] + v[lane + off];
    v = next;
  }
  return v[0];
}
static float block_reduce_model(const float* x, int valid) {  // WARP_REDUCTIONS
  float acc = 0;
  for (int w = 0; w < kBlock / 32; ++w) {
    int wv = valid - 32 * w > 32 ? 32 : valid - 32 * w;
    if (wv <= 0) break;
    float part = warp_reduce_model(x + 32 * w, 32, wv);
    acc = w == 0 ? part : acc + part;
  }
  return acc;
}
static float raking_model(const float* x) {  // 32 raking threads, segments of 8
  float seg[32];
  for (int t = 0; t < 32; ++t) {
    seg[t] = x[8 * t];
    for (int i = 1; i < 8; ++i) seg[t] = seg[t] + x[8 * t + i];
  }
  return warp_reduce_model(seg, 32, 32);
}
static void warp_scan_model(const float* x, float* out) {
  std::vector<float> v(x, x + 32);
  for (int off = 1; off < 32; off *= 2) {
    std::vector<float> next = v;
    for (int lane = off; lane < 32; ++lane) next[lane] = v[lane - off] + v[lane];
    v = next;
  }
  for (int i = 0; i < 32; ++i) out[i] = v[i];
}
static float tree4(const float* x) { return (x[0] + x[1]) + (x[2] + x[3]); }

static unsigned hash_bits(const std::vector<float>& v) {  // FNV-1a of the bits
  unsigned h = 2166136261u;
  for (float f : v) {
    unsigned b;
    std::memcpy(&b, &f, 4);
    for (int k = 0; k < 4; ++k) h = (h ^ ((b >> (8 * k)) & 255u)) * 16777619u;
  }
  return h;
}
static bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }
static int failures = 0;
static void verdict(const char* what, bool ok, const std::vector<float>& v) {
  unsigned b;
  std::memcpy(&b, &v[0], 4);
  printf("%-28s %s  bits %08x  first %.9g (0x%08x)\n", what, ok ? "ok" : "MISMATCH", hash_bits(v), v[0], b);
  failures += !ok;
}

static float* device(const std::vector<float>& h) {
  float* d;
  cudaMalloc(&d, h.size() * sizeof(float));
  cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  return d;
}
static std::vector<float> host(const float* d, size_t n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  // Magnitudes from 2^-10 to 2^20 with both signs: the sum's bits depend on order.
  std::vector<float> x(kBlocks * kTile);
  unsigned s = 12345;
  for (auto& v : x) {
    s = s * 1664525u + 1013904223u;
    float mant = 1.0f + float(s >> 9) / 8388608.0f;
    int e = int((s >> 3) % 31) - 10;
    v = ((s & 1) ? -1.0f : 1.0f) * mant * float(1 << (e > 0 ? e : 0)) / float(1 << (e < 0 ? -e : 0));
  }
  float* d_in = device(x);
  std::vector<float> zeros(kBlocks * kTile, 0.0f);
  float *d_a = device(zeros), *d_b = device(zeros), *d_c = device(zeros), *d_d = device(zeros);

  reduce_warp_reductions<<<kBlocks, kBlock>>>(d_in, d_a);
  auto r = host(d_a, kBlocks);
  bool ok = true;
  for (int b = 0; b < kBlocks; ++b) ok &= same_bits(r[b], block_reduce_model(&x[b * kBlock], kBlock));
  verdict("BlockReduce Sum", ok, r);

  reduce_raking<<<kBlocks, kBlock>>>(d_in, d_a);
  r = host(d_a, kBlocks);
  ok = true;
  for (int b = 0; b < kBlocks; ++b) ok &= same_bits(r[b], raking_model(&x[b * kBlock]));
  verdict("BlockReduce RAKING Sum", ok, r);

  reduce_partial_and_max<<<kBlocks, kBlock>>>(d_in, d_a);
  r = host(d_a, 2 * kBlocks);
  ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    float m = x[b * kBlock];
    for (int t = 1; t < kBlock; ++t) m = m < x[b * kBlock + t] ? x[b * kBlock + t] : m;
    ok &= same_bits(r[2 * b], block_reduce_model(&x[b * kBlock], 200)) && same_bits(r[2 * b + 1], m);
  }
  verdict("BlockReduce Sum(200)+max", ok, r);

  load_vectorize<<<kBlocks, kBlock>>>(d_in, d_b, d_a);
  r = host(d_a, kBlocks);
  auto copy = host(d_b, kBlocks * kTile);
  ok = copy == x;
  for (int b = 0; b < kBlocks; ++b) {
    float partial[kBlock];
    for (int t = 0; t < kBlock; ++t) partial[t] = tree4(&x[b * kTile + kItems * t]);
    ok &= same_bits(r[b], block_reduce_model(partial, kBlock));
  }
  verdict("BlockLoad VECTORIZE + Sum", ok, r);

  // Every algorithm copies the tile unchanged; thread t's first item shows the
  // arrangement: blocked for all but STRIPED.
  auto check_copy = [&](const char* name, bool striped) {
    auto out = host(d_b, kBlocks * kTile), firsts = host(d_c, kBlocks * kBlock);
    bool good = out == x;
    for (int b = 0; b < kBlocks; ++b)
      for (int t = 0; t < kBlock; ++t) good &= firsts[b * kBlock + t] == x[b * kTile + (striped ? t : kItems * t)];
    verdict(name, good, firsts);
  };
  load_store<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT><<<kBlocks, kBlock>>>(d_in, d_b, d_c);
  check_copy("Load/Store DIRECT", false);
  load_store<cub::BLOCK_LOAD_STRIPED, cub::BLOCK_STORE_STRIPED><<<kBlocks, kBlock>>>(d_in, d_b, d_c);
  check_copy("Load/Store STRIPED", true);
  load_store<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE><<<kBlocks, kBlock>>>(d_in, d_b, d_c);
  check_copy("Load/Store TRANSPOSE", false);
  load_store<cub::BLOCK_LOAD_WARP_TRANSPOSE, cub::BLOCK_STORE_WARP_TRANSPOSE><<<kBlocks, kBlock>>>(d_in, d_b, d_c);
  check_copy("Load/Store WARP_TRANSPOSE", false);

  scans<<<kBlocks, kBlock>>>(d_in, d_a, d_b, d_c);
  auto inc = host(d_a, kBlocks * kBlock), exc = host(d_b, kBlocks * kBlock), agg = host(d_c, 2 * kBlocks);
  ok = true;
  for (int b = 0; b < kBlocks; ++b) {
    // CUB's default BLOCK_SCAN_RAKING on 256 threads: 32 segments of 8 raked left
    // to right, a shuffle scan of the 32 partials, each segment scanned from its
    // prefix. Inclusive: E[t] = warp-inclusive of segment t-1 (segment 0 has none);
    // exclusive (initial value 0): P[t] = 0 + warp-inclusive of segment t-1.
    const float* xb = &x[b * kBlock];
    float partial[32], warp_inc[32];
    for (int t = 0; t < 32; ++t) {
      partial[t] = xb[8 * t];
      for (int i = 1; i < 8; ++i) partial[t] = partial[t] + xb[8 * t + i];
    }
    warp_scan_model(partial, warp_inc);
    const float running = warp_inc[31];
    for (int t = 0; t < 32; ++t) {
      float run_inc = t == 0 ? xb[0] : warp_inc[t - 1] + xb[8 * t];
      float run_exc = t == 0 ? 0.0f : 0.0f + warp_inc[t - 1];
      for (int i = 0; i < 8; ++i) {
        if (i > 0) run_inc = run_inc + xb[8 * t + i];
        ok &= same_bits(inc[b * kBlock + 8 * t + i], run_inc) && same_bits(exc[b * kBlock + 8 * t + i], run_exc);
        run_exc = run_exc + xb[8 * t + i];
      }
    }
    ok &= same_bits(agg[2 * b], running) && same_bits(agg[2 * b + 1], running);
  }
  verdict("BlockScan Inclusive/ExclusiveSum", ok, inc);
  verdict("BlockScan exclusive bits", ok, exc);

  warp_primitives<<<kBlocks, kBlock>>>(d_in, d_a, d_b, d_c);
  auto ws = host(d_a, kBlocks * kBlock / 32), ws16 = host(d_b, kBlocks * kBlock / 16), wsc = host(d_c, kBlocks * kBlock);
  ok = true;
  for (int w = 0; w < kBlocks * kBlock / 32; ++w) {
    ok &= same_bits(ws[w], warp_reduce_model(&x[32 * w], 32, 32));
    float m[32];
    warp_scan_model(&x[32 * w], m);
    for (int l = 0; l < 32; ++l) ok &= same_bits(wsc[32 * w + l], m[l]);
  }
  for (int w = 0; w < kBlocks * kBlock / 16; ++w) ok &= same_bits(ws16[w], warp_reduce_model(&x[16 * w], 16, 16));
  verdict("WarpReduce/WarpScan", ok, wsc);

  printf("%s\n", failures ? "CUB: FAILED" : "CUB: all results equal CUDA 13's order");
  return failures ? 1 : 0;
}
