// CUB's device-wide algorithms (cub::DeviceReduce, DeviceScan, DeviceRadixSort,
// DeviceSegmentedReduce, DeviceHistogram, DeviceSelect, DeviceRunLengthEncode) with
// the two-call temp-storage pattern, empty inputs, sizes that are not a multiple of
// any tile, and an MoE router (token->expert counts, offsets, tokens grouped by expert).
// Plain CUDA: nvcc builds it against CUDA 13's CUB, simtlab against its own headers.
// Every result is checked against a CPU reference here (exit 1 on a mismatch); each
// line's "bits" is a hash of the output bytes, compared with the H200's by
// tests/libs/test_libs.cpp (docs/validation/h200-cub.md).
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;
static const char* dump_dir = nullptr;  // argv[1]: also write the float outputs there

template <class T> static void dump(const char* name, int n, const std::vector<T>& v) {
  if (!dump_dir) return;
  char path[512];
  snprintf(path, sizeof path, "%s/%s_%d.bin", dump_dir, name, n);
  if (FILE* f = fopen(path, "wb")) {
    fwrite(v.data(), sizeof(T), v.size(), f);
    fclose(f);
  }
}

static unsigned fnv(const void* data, size_t bytes, unsigned h = 2166136261u) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}
template <class T> static unsigned bits_of(const std::vector<T>& v) { return fnv(v.data(), v.size() * sizeof(T)); }

static void report(const char* what, bool ok, unsigned bits, const char* extra = "") {
  printf("%s: %s bits %08x%s\n", what, ok ? "ok" : "MISMATCH", bits, extra);
  failures += !ok;
}

static unsigned lcg_state = 12345u;
static unsigned lcg() { return lcg_state = lcg_state * 1664525u + 1013904223u; }
static float uniform(float lo, float hi) { return lo + (hi - lo) * float(lcg() >> 8) / 16777216.0f; }

template <class T> static T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  cudaMalloc(&d, std::max<size_t>(1, h.size()) * sizeof(T));
  if (!h.empty()) cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <class T> static std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> h(n);
  if (n) cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

// CUB's two calls: the size query (no work), then the work in that much temp storage.
template <class F> static cudaError_t two_calls(F f) {
  size_t bytes = 0;
  cudaError_t e = f(nullptr, bytes);
  if (e != cudaSuccess) return e;
  void* temp = nullptr;
  cudaMalloc(&temp, bytes ? bytes : 1);
  e = f(temp, bytes);
  cudaFree(temp);
  return e;
}

struct AbsMax {
  __host__ __device__ float operator()(float a, float b) const { return fabsf(a) > fabsf(b) ? fabsf(a) : fabsf(b); }
};
struct Square {
  __host__ __device__ float operator()(float a) const { return a * a; }
};
struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};
struct MaxOp {
  __host__ __device__ int operator()(int a, int b) const { return b > a ? b : a; }
};

static std::vector<float> floats(int n, float lo, float hi) {
  std::vector<float> v(n);
  for (auto& x : v) x = uniform(lo, hi);
  return v;
}
static std::vector<int> ints(int n, int lo, int hi) {
  std::vector<int> v(n);
  for (auto& x : v) x = lo + int(lcg() >> 8) % (hi - lo);
  return v;
}

static void reduce_sums() {
  for (int n : {0, 1, 1000, 4097, (1 << 20) + 3}) {
    std::vector<int> h = ints(n, -1000, 1000);
    int* d = to_device(h);
    int* out = to_device(std::vector<int>{-7});
    cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Sum(t, b, d, out, n); });
    long long want = 0;
    for (int x : h) want += x;
    std::vector<int> got = to_host(out, 1);
    char what[64];
    snprintf(what, sizeof what, "DeviceReduce::Sum int n=%d", n);
    report(what, e == cudaSuccess && got[0] == int(want), bits_of(got));
    cudaFree(d);
    cudaFree(out);
  }
  // Float sums: the order is CUB's (tiles, thread trees, warp shuffles, block folds).
  for (int n : {1000, 1 << 20, 3 * (1 << 20) + 7}) {
    std::vector<float> h = floats(n, -1.0f, 1.0f);
    float* d = to_device(h);
    float* out = to_device(std::vector<float>{0});
    cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Sum(t, b, d, out, n); });
    double want = 0, mag = 0;
    for (float x : h) { want += x; mag += std::fabs(x); }
    std::vector<float> got = to_host(out, 1);
    char what[64], extra[64];
    snprintf(what, sizeof what, "DeviceReduce::Sum float n=%d", n);
    snprintf(extra, sizeof extra, " value %.9g", got[0]);
    report(what, e == cudaSuccess && std::fabs(got[0] - want) <= 1e-6 * mag, bits_of(got), extra);
    cudaFree(d);
    cudaFree(out);
  }
}

static void reduce_extrema() {
  const int n = 300001;
  std::vector<float> h = floats(n, -50.0f, 50.0f);
  h[123457] = -60.0f;
  h[200000] = -60.0f;  // a tie: the first index wins
  h[7] = 61.0f;
  float* d = to_device(h);
  float* out = to_device(std::vector<float>{0});
  cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Min(t, b, d, out, n); });
  std::vector<float> got = to_host(out, 1);
  report("DeviceReduce::Min float", e == cudaSuccess && got[0] == -60.0f, bits_of(got));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Max(t, b, d, out, n); });
  got = to_host(out, 1);
  report("DeviceReduce::Max float", e == cudaSuccess && got[0] == 61.0f, bits_of(got));

  using Pair = cub::KeyValuePair<int, float>;
  Pair* pair = to_device(std::vector<Pair>(1));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::ArgMin(t, b, d, pair, n); });
  std::vector<Pair> p = to_host(pair, 1);
  report("DeviceReduce::ArgMin pair", e == cudaSuccess && p[0].key == 123457 && p[0].value == -60.0f, bits_of(p));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::ArgMax(t, b, d, pair, n); });
  p = to_host(pair, 1);
  report("DeviceReduce::ArgMax pair", e == cudaSuccess && p[0].key == 7 && p[0].value == 61.0f, bits_of(p));
  // CUDA 13's form: value and index to separate outputs.
  long long* index = to_device(std::vector<long long>{-1});
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::ArgMin(t, b, d, out, index, n); });
  got = to_host(out, 1);
  std::vector<long long> i = to_host(index, 1);
  report("DeviceReduce::ArgMin split", e == cudaSuccess && got[0] == -60.0f && i[0] == 123457, bits_of(got) ^ bits_of(i));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::ArgMax(t, b, d, out, index, n); });
  got = to_host(out, 1);
  i = to_host(index, 1);
  report("DeviceReduce::ArgMax split", e == cudaSuccess && got[0] == 61.0f && i[0] == 7, bits_of(got) ^ bits_of(i));

  // A functor with an initial value; an empty input gives the initial value.
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Reduce(t, b, d, out, n, AbsMax(), 0.5f); });
  got = to_host(out, 1);
  report("DeviceReduce::Reduce AbsMax", e == cudaSuccess && got[0] == 61.0f, bits_of(got));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceReduce::Reduce(t, b, d, out, 0, AbsMax(), 0.5f); });
  got = to_host(out, 1);
  report("DeviceReduce::Reduce empty", e == cudaSuccess && got[0] == 0.5f, bits_of(got));
  // Sum of squares (TransformReduce): order-dependent like Sum.
  const int m = 5000;
  e = two_calls([&](void* t, size_t& b) {
    return cub::DeviceReduce::TransformReduce(t, b, d, out, m, ::cuda::std::plus<>(), Square(), 0.0f);
  });
  got = to_host(out, 1);
  double want = 0;
  for (int k = 0; k < m; ++k) want += double(h[k]) * h[k];
  report("DeviceReduce::TransformReduce", e == cudaSuccess && std::fabs(got[0] - want) <= 1e-5 * want, bits_of(got));
  cudaFree(d);
  cudaFree(out);
  cudaFree(pair);
  cudaFree(index);
}

static void scans() {
  for (int n : {0, 1000, 3 * (1 << 20) + 7}) {
    std::vector<int> h = ints(n, -100, 100);
    int* d = to_device(h);
    int* out = to_device(std::vector<int>(n));
    std::vector<int> inc(n), exc(n);
    int run = 0;
    for (int k = 0; k < n; ++k) { exc[k] = run; run += h[k]; inc[k] = run; }
    cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, d, out, n); });
    std::vector<int> got = to_host(out, n);
    char what[64];
    snprintf(what, sizeof what, "DeviceScan::InclusiveSum int n=%d", n);
    report(what, e == cudaSuccess && got == inc, bits_of(got));
    e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, d, out, n); });
    got = to_host(out, n);
    snprintf(what, sizeof what, "DeviceScan::ExclusiveSum int n=%d", n);
    report(what, e == cudaSuccess && got == exc, bits_of(got));
    // In place, as MoE routers compute offsets.
    e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::ExclusiveSum(t, b, d, d, n); });
    got = to_host(d, n);
    snprintf(what, sizeof what, "DeviceScan::ExclusiveSum in place n=%d", n);
    report(what, e == cudaSuccess && got == exc, bits_of(got));
    cudaFree(d);
    cudaFree(out);
  }
  for (int n : {1000, 1 << 20, 3 * (1 << 20) + 7}) {
    std::vector<float> h = floats(n, 0.0f, 1.0f);
    float* d = to_device(h);
    float* out = to_device(std::vector<float>(n));
    cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::InclusiveSum(t, b, d, out, n); });
    std::vector<float> got = to_host(out, n);
    double run = 0;
    bool ok = e == cudaSuccess;
    for (int k = 0; k < n; ++k) { run += h[k]; ok &= std::fabs(got[k] - run) <= 1e-5 * run + 1e-6; }
    char what[64], extra[64];
    snprintf(what, sizeof what, "DeviceScan::InclusiveSum float n=%d", n);
    snprintf(extra, sizeof extra, " last %.9g", got[n - 1]);
    dump("inclusive_sum_float", n, got);
    report(what, ok, bits_of(got), extra);
    cudaFree(d);
    cudaFree(out);
  }
  const int n = 100003;
  std::vector<int> h = ints(n, -100000, 100000);
  int* d = to_device(h);
  int* out = to_device(std::vector<int>(n));
  cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, d, out, MaxOp(), n); });
  std::vector<int> got = to_host(out, n), want(n);
  for (int k = 0, m = h[0]; k < n; ++k) want[k] = m = std::max(m, h[k]);
  report("DeviceScan::InclusiveScan max", e == cudaSuccess && got == want, bits_of(got));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceScan::ExclusiveScan(t, b, d, out, MaxOp(), -5000000, n); });
  got = to_host(out, n);
  for (int k = 0, m = -5000000; k < n; ++k) { want[k] = m; m = std::max(m, h[k]); }
  report("DeviceScan::ExclusiveScan max init", e == cudaSuccess && got == want, bits_of(got));
  cudaFree(d);
  cudaFree(out);
}

// CUB's radix order of floats: -0.0 sorts as +0.0 (equal keys keep their order).
static unsigned float_key(float f) {
  if (f == 0.0f) f = 0.0f;
  unsigned b;
  std::memcpy(&b, &f, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

static void radix_sorts() {
  const int n = 70001;
  std::vector<unsigned> u(n);
  for (auto& x : u) x = lcg();
  unsigned* du = to_device(u);
  unsigned* du_out = to_device(std::vector<unsigned>(n));
  cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, du, du_out, n); });
  std::vector<unsigned> got = to_host(du_out, n), want = u;
  std::sort(want.begin(), want.end());
  report("DeviceRadixSort::SortKeys unsigned", e == cudaSuccess && got == want, bits_of(got));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortKeysDescending(t, b, du, du_out, n); });
  got = to_host(du_out, n);
  std::reverse(want.begin(), want.end());
  report("DeviceRadixSort::SortKeysDescending unsigned", e == cudaSuccess && got == want, bits_of(got));
  // Bits [4, 12) only: a stable sort by that field.
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, du, du_out, n, 4, 12); });
  got = to_host(du_out, n);
  want = u;
  std::stable_sort(want.begin(), want.end(), [](unsigned a, unsigned b) { return ((a >> 4) & 0xff) < ((b >> 4) & 0xff); });
  report("DeviceRadixSort::SortKeys bits [4,12)", e == cudaSuccess && got == want, bits_of(got));

  // Signed keys with values: stability shows through the values (their indices).
  std::vector<int> k = ints(n, -500, 500), v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  int* dk = to_device(k);
  int* dv = to_device(v);
  int* dk_out = to_device(std::vector<int>(n));
  int* dv_out = to_device(std::vector<int>(n));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortPairs(t, b, dk, dk_out, dv, dv_out, n); });
  std::vector<int> gk = to_host(dk_out, n), gv = to_host(dv_out, n), order = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return k[a] < k[b]; });
  bool ok = e == cudaSuccess;
  for (int i = 0; i < n; ++i) ok &= gk[i] == k[order[i]] && gv[i] == order[i];
  report("DeviceRadixSort::SortPairs int", ok, bits_of(gk) ^ bits_of(gv));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortPairsDescending(t, b, dk, dk_out, dv, dv_out, n); });
  gk = to_host(dk_out, n);
  gv = to_host(dv_out, n);
  order = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return k[a] > k[b]; });
  ok = e == cudaSuccess;
  for (int i = 0; i < n; ++i) ok &= gk[i] == k[order[i]] && gv[i] == order[i];
  report("DeviceRadixSort::SortPairsDescending int", ok, bits_of(gk) ^ bits_of(gv));

  // Float keys with both zeros and duplicates.
  std::vector<float> f(n);
  for (auto& x : f) x = float(int(lcg() >> 24) % 41 - 20) * 0.25f;
  f[5] = -0.0f;
  f[9] = 0.0f;
  float* df = to_device(f);
  float* df_out = to_device(std::vector<float>(n));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortPairs(t, b, df, df_out, dv, dv_out, n); });
  std::vector<float> gf = to_host(df_out, n);
  gv = to_host(dv_out, n);
  order = v;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return float_key(f[a]) < float_key(f[b]); });
  ok = e == cudaSuccess;
  for (int i = 0; i < n; ++i) ok &= std::memcmp(&gf[i], &f[order[i]], 4) == 0 && gv[i] == order[i];
  report("DeviceRadixSort::SortPairs float", ok, bits_of(gf) ^ bits_of(gv));

  // Empty input: nothing to do, success.
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRadixSort::SortKeys(t, b, du, du_out, 0); });
  report("DeviceRadixSort::SortKeys empty", e == cudaSuccess, 0);
  for (void* p : {(void*)du, (void*)du_out, (void*)dk, (void*)dv, (void*)dk_out, (void*)dv_out, (void*)df, (void*)df_out}) cudaFree(p);
}

static void segmented_reduces() {
  // Segments of 0 .. 9000 items, some empty, one far larger than a tile.
  std::vector<int> offsets{0};
  for (int len : {5, 0, 1000, 4096, 4097, 0, 9000, 1, 333}) offsets.push_back(offsets.back() + len);
  const int segments = int(offsets.size()) - 1, n = offsets.back();
  std::vector<float> h = floats(n, -1.0f, 1.0f);
  float* d = to_device(h);
  int* off = to_device(offsets);
  float* out = to_device(std::vector<float>(segments));
  cudaError_t e = two_calls([&](void* t, size_t& b) {
    return cub::DeviceSegmentedReduce::Sum(t, b, d, out, segments, off, off + 1);
  });
  std::vector<float> got = to_host(out, segments);
  bool ok = e == cudaSuccess;
  for (int s = 0; s < segments; ++s) {
    double want = 0, mag = 0;
    for (int i = offsets[s]; i < offsets[s + 1]; ++i) { want += h[i]; mag += std::fabs(h[i]); }
    ok &= std::fabs(got[s] - want) <= 1e-6 * mag;
  }
  report("DeviceSegmentedReduce::Sum float", ok, bits_of(got));
  for (int which = 0; which < 3; ++which) {
    if (which == 0) e = two_calls([&](void* t, size_t& b) { return cub::DeviceSegmentedReduce::Max(t, b, d, out, segments, off, off + 1); });
    if (which == 1) e = two_calls([&](void* t, size_t& b) { return cub::DeviceSegmentedReduce::Min(t, b, d, out, segments, off, off + 1); });
    if (which == 2)
      e = two_calls([&](void* t, size_t& b) {
        return cub::DeviceSegmentedReduce::Reduce(t, b, d, out, segments, off, off + 1, AbsMax(), 0.25f);
      });
    got = to_host(out, segments);
    ok = e == cudaSuccess;
    for (int s = 0; s < segments; ++s) {
      float want = which == 0 ? -INFINITY : which == 1 ? INFINITY : 0.25f;
      if (which == 0) want = -3.40282347e38f;  // numeric_limits<float>::lowest() for an empty segment
      if (which == 1) want = 3.40282347e38f;
      for (int i = offsets[s]; i < offsets[s + 1]; ++i)
        want = which == 0 ? std::max(want, h[i]) : which == 1 ? std::min(want, h[i]) : AbsMax()(want, h[i]);
      ok &= got[s] == want;
    }
    const char* names[] = {"DeviceSegmentedReduce::Max float", "DeviceSegmentedReduce::Min float",
                           "DeviceSegmentedReduce::Reduce AbsMax"};
    report(names[which], ok, bits_of(got));
  }
  cudaFree(d);
  cudaFree(off);
  cudaFree(out);
}

static void histograms() {
  const int n = 200003, bins = 37;
  std::vector<float> f = floats(n, -1.5f, 11.5f);  // some below and above the range
  float* df = to_device(f);
  int* hist = to_device(std::vector<int>(bins));
  cudaError_t e = two_calls([&](void* t, size_t& b) {
    return cub::DeviceHistogram::HistogramEven(t, b, df, hist, bins + 1, 0.0f, 10.0f, n);
  });
  std::vector<int> got = to_host(hist, bins), want(bins);
  const float scale = float(bins) / 10.0f;  // CUB's: (sample - lower) * (bins / (upper - lower))
  for (float x : f)
    if (x >= 0.0f && x < 10.0f) want[std::min(bins - 1, int((x - 0.0f) * scale))]++;
  report("DeviceHistogram::HistogramEven float", e == cudaSuccess && got == want, bits_of(got));

  std::vector<int> s = ints(n, -20, 300);
  int* ds = to_device(s);
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceHistogram::HistogramEven(t, b, ds, hist, bins + 1, 0, 256, n); });
  got = to_host(hist, bins);
  std::fill(want.begin(), want.end(), 0);
  for (int x : s)
    if (x >= 0 && x < 256) want[unsigned(x) * unsigned(bins) / 256u]++;
  report("DeviceHistogram::HistogramEven int", e == cudaSuccess && got == want, bits_of(got));

  std::vector<float> levels{-1.0f, 0.0f, 0.5f, 2.0f, 3.0f, 7.25f, 11.0f};
  float* dl = to_device(levels);
  const int range_bins = int(levels.size()) - 1;
  e = two_calls([&](void* t, size_t& b) {
    return cub::DeviceHistogram::HistogramRange(t, b, df, hist, int(levels.size()), dl, n);
  });
  got = to_host(hist, range_bins);
  want.assign(range_bins, 0);
  for (float x : f)
    for (int k = 0; k < range_bins; ++k)
      if (x >= levels[k] && x < levels[k + 1]) want[k]++;
  report("DeviceHistogram::HistogramRange float", e == cudaSuccess && got == want, bits_of(got));
  cudaFree(df);
  cudaFree(ds);
  cudaFree(hist);
  cudaFree(dl);
}

static void selects() {
  const int n = 123457;
  std::vector<int> h = ints(n, 0, 50);
  for (int i = 0; i < n; i += 3) h[i] = h[i > 0 ? i - 1 : 0];  // runs for Unique and RLE
  int* d = to_device(h);
  int* out = to_device(std::vector<int>(n));
  int* count = to_device(std::vector<int>{-1});
  cudaError_t e = two_calls([&](void* t, size_t& b) { return cub::DeviceSelect::If(t, b, d, out, count, n, IsOdd()); });
  std::vector<int> want;
  for (int x : h)
    if (x & 1) want.push_back(x);
  int c = to_host(count, 1)[0];
  std::vector<int> got = to_host(out, std::max(0, c));
  report("DeviceSelect::If", e == cudaSuccess && got == want, bits_of(got));

  std::vector<char> flags(n);
  for (int i = 0; i < n; ++i) flags[i] = char(h[i] % 7 == 0);
  char* df = to_device(flags);
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceSelect::Flagged(t, b, d, df, out, count, n); });
  want.clear();
  for (int i = 0; i < n; ++i)
    if (flags[i]) want.push_back(h[i]);
  c = to_host(count, 1)[0];
  got = to_host(out, std::max(0, c));
  report("DeviceSelect::Flagged", e == cudaSuccess && got == want, bits_of(got));

  e = two_calls([&](void* t, size_t& b) { return cub::DeviceSelect::Unique(t, b, d, out, count, n); });
  want.clear();
  for (int i = 0; i < n; ++i)
    if (i == 0 || h[i] != h[i - 1]) want.push_back(h[i]);
  c = to_host(count, 1)[0];
  got = to_host(out, std::max(0, c));
  report("DeviceSelect::Unique", e == cudaSuccess && got == want, bits_of(got));

  int* lengths = to_device(std::vector<int>(n));
  e = two_calls([&](void* t, size_t& b) { return cub::DeviceRunLengthEncode::Encode(t, b, d, out, lengths, count, n); });
  std::vector<int> want_len;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || h[i] != h[i - 1]) want_len.push_back(0);
    want_len.back()++;
  }
  c = to_host(count, 1)[0];
  got = to_host(out, std::max(0, c));
  std::vector<int> got_len = to_host(lengths, std::max(0, c));
  report("DeviceRunLengthEncode::Encode", e == cudaSuccess && got == want && got_len == want_len, bits_of(got) ^ bits_of(got_len));

  e = two_calls([&](void* t, size_t& b) { return cub::DeviceSelect::If(t, b, d, out, count, 0, IsOdd()); });
  report("DeviceSelect::If empty", e == cudaSuccess && to_host(count, 1)[0] == 0, 0);
  cudaFree(d);
  cudaFree(out);
  cudaFree(count);
  cudaFree(df);
  cudaFree(lengths);
}

// An MoE router's bookkeeping on a stream: each token's expert (top-1), tokens per
// expert (histogram), each expert's first slot (exclusive sum), and the tokens
// grouped by expert in token order (a stable sort of (expert, token) pairs).
static void moe_router() {
  const int tokens = 4099, experts = 8;
  std::vector<int> expert(tokens), token(tokens);
  for (int t = 0; t < tokens; ++t) {
    expert[t] = int(lcg() >> 8) % experts;
    token[t] = t;
  }
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* d_expert = to_device(expert);
  int* d_token = to_device(token);
  int* d_counts = to_device(std::vector<int>(experts + 1));
  int* d_offsets = to_device(std::vector<int>(experts + 1));
  int* d_sorted_expert = to_device(std::vector<int>(tokens));
  int* d_sorted_token = to_device(std::vector<int>(tokens));
  cudaError_t e = two_calls([&](void* t, size_t& b) {
    return cub::DeviceHistogram::HistogramEven(t, b, d_expert, d_counts, experts + 1, 0, experts, tokens, stream);
  });
  e = e != cudaSuccess ? e : two_calls([&](void* t, size_t& b) {
    return cub::DeviceScan::ExclusiveSum(t, b, d_counts, d_offsets, experts + 1, stream);
  });
  e = e != cudaSuccess ? e : two_calls([&](void* t, size_t& b) {
    return cub::DeviceRadixSort::SortPairs(t, b, d_expert, d_sorted_expert, d_token, d_sorted_token, tokens, 0, 3, stream);
  });
  cudaStreamSynchronize(stream);
  std::vector<int> counts = to_host(d_counts, experts), offsets = to_host(d_offsets, experts + 1);
  std::vector<int> sorted_token = to_host(d_sorted_token, tokens);
  std::vector<int> want_counts(experts), want_offsets(experts + 1), want_tokens;
  for (int x : expert) want_counts[x]++;
  for (int x = 0; x < experts; ++x) want_offsets[x + 1] = want_offsets[x] + want_counts[x];
  want_offsets[experts] = want_offsets[experts];  // the scanned extra bin (0 in the histogram's unused slot)
  for (int x = 0; x < experts; ++x)
    for (int t = 0; t < tokens; ++t)
      if (expert[t] == x) want_tokens.push_back(t);
  offsets.pop_back();
  want_offsets.pop_back();
  const bool ok = e == cudaSuccess && counts == want_counts && offsets == want_offsets && sorted_token == want_tokens;
  report("MoE router counts/offsets/grouping", ok, bits_of(counts) ^ bits_of(offsets) ^ bits_of(sorted_token));
  for (int* p : {d_expert, d_token, d_counts, d_offsets, d_sorted_expert, d_sorted_token}) cudaFree(p);
  cudaStreamDestroy(stream);
}

// The size query does no work and leaves the output alone.
static void size_query() {
  const int n = 10000;
  std::vector<int> h = ints(n, 0, 10);
  int* d = to_device(h);
  int* out = to_device(std::vector<int>{-7});
  size_t bytes = 0;
  cudaError_t e = cub::DeviceReduce::Sum(nullptr, bytes, d, out, n);
  cudaDeviceSynchronize();
  report("temp storage query", e == cudaSuccess && bytes > 0 && to_host(out, 1)[0] == -7, 0);
  cudaFree(d);
  cudaFree(out);
}

int main(int argc, char** argv) {
  if (argc > 1) dump_dir = argv[1];
  size_query();
  reduce_sums();
  reduce_extrema();
  scans();
  radix_sorts();
  segmented_reduces();
  histograms();
  selects();
  moe_router();
  printf("%s\n", failures ? "FAILED" : "all device-wide CUB results ok");
  return failures ? 1 : 0;
}
