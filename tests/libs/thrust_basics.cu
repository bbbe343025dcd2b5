// Thrust's basics on device_vectors: fill, sequence, transform, reduce (int and float),
// transform_reduce, count_if, max_element, min_element, sort, sort_by_key (stable),
// inclusive and exclusive scans, reduce_by_key, copies both ways, and a host_vector run.
// Plain CUDA: nvcc builds it against CUDA 13's Thrust, simtlab against its own headers.
// Each result is checked against a CPU reference (exit 1 on a mismatch) and printed
// with a hash of its bytes.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <vector>

static int failures = 0;
static unsigned fnv(const void* data, size_t bytes) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 16777619u;
  return h;
}
template <class T> static unsigned bits_of(const std::vector<T>& v) { return fnv(v.data(), v.size() * sizeof(T)); }
template <class T> static unsigned bits_of(const T& x) { return fnv(&x, sizeof x); }
static void report(const char* what, bool ok, unsigned bits) {
  printf("%s: %s bits %08x\n", what, ok ? "ok" : "MISMATCH", bits);
  failures += !ok;
}
static unsigned state = 99u;
static unsigned lcg() { return state = state * 1664525u + 1013904223u; }

template <class T> static std::vector<T> host(const thrust::device_vector<T>& d) {
  std::vector<T> h(d.size());
  thrust::copy(d.begin(), d.end(), h.begin());
  return h;
}

struct Saxpy {
  float a;
  __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct Square {
  __host__ __device__ float operator()(float x) const { return x * x; }
};
struct IsMultipleOf3 {
  __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};

int main() {
  const int n = 100003;
  std::vector<float> hx(n), hy(n);
  std::vector<int> hk(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = float(int(lcg() >> 8) % 2001 - 1000) / 256.0f;
    hy[i] = float(int(lcg() >> 8) % 2001 - 1000) / 512.0f;
    hk[i] = int(lcg() >> 8) % 5000 - 2500;
  }
  thrust::device_vector<float> x(hx.begin(), hx.end()), y = hy, z(n);
  thrust::device_vector<int> k = hk;

  thrust::device_vector<int> f(n);
  thrust::fill(f.begin(), f.end(), 7);
  std::vector<int> got = host(f);
  report("fill", got == std::vector<int>(n, 7), bits_of(got));

  thrust::device_vector<int> s(n);
  thrust::sequence(s.begin(), s.end(), 5, 3);
  got = host(s);
  std::vector<int> want(n);
  for (int i = 0; i < n; ++i) want[i] = 5 + 3 * i;
  report("sequence", got == want, bits_of(got));

  thrust::transform(x.begin(), x.end(), y.begin(), z.begin(), Saxpy{2.5f});
  std::vector<float> gz = host(z), wz(n);
  for (int i = 0; i < n; ++i) wz[i] = 2.5f * hx[i] + hy[i];
  report("transform saxpy", gz == wz, bits_of(gz));

  const float sum = thrust::reduce(x.begin(), x.end());
  double dsum = 0, mag = 0;
  for (float v : hx) { dsum += v; mag += std::fabs(v); }
  report("reduce float", std::fabs(sum - dsum) <= 1e-6 * mag, bits_of(sum));
  const int isum = thrust::reduce(k.begin(), k.end(), 0, thrust::plus<int>());
  report("reduce int", isum == std::accumulate(hk.begin(), hk.end(), 0), bits_of(isum));
  const int imax = thrust::reduce(thrust::device, thrust::raw_pointer_cast(k.data()), thrust::raw_pointer_cast(k.data()) + n,
                                  -1000000, thrust::maximum<int>());
  report("reduce max (raw pointers, thrust::device)", imax == *std::max_element(hk.begin(), hk.end()), bits_of(imax));

  const float sq = thrust::transform_reduce(x.begin(), x.end(), Square(), 0.0f, thrust::plus<float>());
  double dsq = 0;
  for (float v : hx) dsq += double(v) * v;
  report("transform_reduce", std::fabs(sq - dsq) <= 1e-6 * dsq, bits_of(sq));

  const long long c = thrust::count_if(k.begin(), k.end(), IsMultipleOf3());
  report("count_if", c == std::count_if(hk.begin(), hk.end(), [](int v) { return v % 3 == 0; }), bits_of(c));
  const long long c7 = thrust::count(f.begin(), f.end(), 7);
  report("count", c7 == n, bits_of(c7));

  const long long at_max = thrust::max_element(k.begin(), k.end()) - k.begin();
  const long long at_min = thrust::min_element(k.begin(), k.end()) - k.begin();
  report("max_element/min_element", at_max == std::max_element(hk.begin(), hk.end()) - hk.begin() &&
                                        at_min == std::min_element(hk.begin(), hk.end()) - hk.begin(),
         bits_of(at_max) ^ bits_of(at_min));

  thrust::device_vector<int> sorted = k;
  thrust::sort(sorted.begin(), sorted.end());
  got = host(sorted);
  want = hk;
  std::sort(want.begin(), want.end());
  report("sort int", got == want, bits_of(got));
  thrust::device_vector<float> fs = x;
  thrust::sort(fs.begin(), fs.end(), thrust::greater<float>());
  std::vector<float> gf = host(fs), wf = hx;
  std::stable_sort(wf.begin(), wf.end(), std::greater<float>());
  report("sort float descending", gf == wf, bits_of(gf));

  thrust::device_vector<int> keys = k, vals(n);
  thrust::sequence(vals.begin(), vals.end());
  thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin());
  std::vector<int> gk = host(keys), gv = host(vals), order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return hk[a] < hk[b]; });
  bool ok = true;
  for (int i = 0; i < n; ++i) ok &= gk[i] == hk[order[i]] && gv[i] == order[i];
  report("stable_sort_by_key", ok, bits_of(gk) ^ bits_of(gv));

  thrust::device_vector<int> scanned(n);
  thrust::inclusive_scan(k.begin(), k.end(), scanned.begin());
  got = host(scanned);
  std::inclusive_scan(hk.begin(), hk.end(), want.begin());
  report("inclusive_scan", got == want, bits_of(got));
  thrust::exclusive_scan(k.begin(), k.end(), scanned.begin(), 10);
  got = host(scanned);
  std::exclusive_scan(hk.begin(), hk.end(), want.begin(), 10);
  report("exclusive_scan init", got == want, bits_of(got));

  // reduce_by_key over the sorted keys: one total per distinct key.
  thrust::device_vector<int> ukeys(n), totals(n), ones(n, 1);
  auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), ones.begin(), ukeys.begin(), totals.begin());
  const long long runs = ends.first - ukeys.begin();
  std::vector<int> gu = host(ukeys), gt = host(totals), wu, wt;
  for (int i = 0; i < n; ++i) {
    if (i == 0 || gk[i] != gk[i - 1]) { wu.push_back(gk[i]); wt.push_back(0); }
    wt.back()++;
  }
  gu.resize(runs);
  gt.resize(runs);
  report("reduce_by_key", gu == wu && gt == wt && ends.second - totals.begin() == runs, bits_of(gu) ^ bits_of(gt));

  // Copies and element access from the host; a host_vector runs on the host.
  thrust::host_vector<float> back(n);
  thrust::copy(z.begin(), z.end(), back.begin());
  const float z5 = z[5];
  z[6] = 1.5f;
  report("copy and element access", std::vector<float>(back.begin(), back.end()) == wz && z5 == wz[5] && float(z[6]) == 1.5f, bits_of(z5));
  thrust::host_vector<int> h(hk.begin(), hk.begin() + 1000);
  thrust::sort(h.begin(), h.end());
  report("host_vector sort", std::is_sorted(h.begin(), h.end()), bits_of(std::vector<int>(h.begin(), h.end())));

  printf("%s\n", failures ? "FAILED" : "all Thrust results ok");
  return failures ? 1 : 0;
}
