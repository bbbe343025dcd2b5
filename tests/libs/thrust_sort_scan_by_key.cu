// simtlab's thrust::sort and sort_by_key by a comparator radix sort cannot take (a
// functor, a struct's operator<, pairs: a stable merge sort, as CUB's), descending
// radix sorts by cuda::std::greater, is_sorted, adjacent_difference, device_malloc,
// inclusive_scan_by_key and exclusive_scan_by_key
// (keys, a head-flag predicate, several scan tiles), and thrust/version.h. Each line
// prints what Thrust defines it to give (tests/libs/test_libs.cpp holds the text).
#include <cuda/std/functional>
#include <cuda/std/utility>
#include <thrust/adjacent_difference.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/version.h>

#include <cstdio>
#include <vector>

template <class V> void print(const char* what, const V& v) {
  std::printf("%s:", what);
  for (auto x : v) std::printf(" %lld", static_cast<long long>(x));
  std::printf("\n");
}

struct EvensFirst {  // a non-const operator(), as functors may have
  __host__ __device__ bool operator()(int a, int b) {
    if (a % 2 != b % 2) return a % 2 == 0;
    return a < b;
  }
};
struct ByTens {  // compares a / 10 only: equal keys keep their order (stable)
  __host__ __device__ bool operator()(int a, int b) const { return a / 10 < b / 10; }
};
struct Item {
  int key;
  int tag;
  __host__ __device__ bool operator<(const Item& o) const { return key < o.key; }
};
struct HeadFlag {  // a new segment wherever the flag is 1
  __host__ __device__ bool operator()(int, int next) const { return next == 0; }
};

int main() {
  std::printf("Thrust %d.%d.%d\n", THRUST_MAJOR_VERSION, THRUST_MINOR_VERSION, THRUST_SUBMINOR_VERSION);

  std::vector<int> h = {7, 2, 9, 4, 4, 1, 8, 3, 6, 5, 0, 11};
  thrust::device_vector<int> d(h.begin(), h.end());
  thrust::sort(d.begin(), d.end(), EvensFirst{});
  print("evens first", thrust::host_vector<int>(d));
  d = h;
  thrust::sort(d.begin(), d.end(), cuda::std::greater<int>());
  print("descending", thrust::host_vector<int>(d));

  thrust::device_vector<int> tens = {31, 12, 35, 10, 19, 33, 2, 15, 30, 7};
  thrust::stable_sort(tens.begin(), tens.end(), ByTens{});
  print("stable by tens", thrust::host_vector<int>(tens));

  std::vector<Item> items;
  for (int i = 0; i < 300; ++i) items.push_back({(i * 37) % 11, i});
  thrust::device_vector<Item> di(items.begin(), items.end());
  thrust::sort(di.begin(), di.end());
  std::vector<Item> sorted(300);
  thrust::copy(di.begin(), di.end(), sorted.begin());
  bool stable = true;
  for (int i = 1; i < 300; ++i)
    stable = stable && (sorted[i - 1].key < sorted[i].key || (sorted[i - 1].key == sorted[i].key && sorted[i - 1].tag < sorted[i].tag));
  std::printf("300 structs by operator<: first (%d,%d) last (%d,%d), stable %d\n", sorted[0].key, sorted[0].tag, sorted[299].key,
              sorted[299].tag, (int)stable);

  thrust::device_vector<cuda::std::pair<int, int>> pairs;
  std::vector<cuda::std::pair<int, int>> hp = {{2, 1}, {1, 5}, {2, 0}, {1, 2}, {0, 9}};
  pairs = hp;
  thrust::sort(pairs.begin(), pairs.end());
  std::vector<cuda::std::pair<int, int>> sp(5);
  thrust::copy(pairs.begin(), pairs.end(), sp.begin());
  std::printf("pairs:");
  for (auto p : sp) std::printf(" (%d,%d)", p.first, p.second);
  std::printf("\n");

  thrust::device_vector<int> keys = {5, 3, 5, 1, 3, 8}, values = {0, 1, 2, 3, 4, 5};
  thrust::sort_by_key(keys.begin(), keys.end(), values.begin(), EvensFirst{});
  print("sort_by_key evens first, keys", thrust::host_vector<int>(keys));
  print("sort_by_key evens first, values", thrust::host_vector<int>(values));

  // Scans by key: runs of keys 0 0 0 1 1 2 ... over 5000 values (three scan tiles).
  const int n = 5000;
  thrust::device_vector<int> k(n), v(n), out(n);
  std::vector<int> hk(n);
  for (int i = 0; i < n; ++i) hk[i] = i / 7;
  k = hk;
  thrust::sequence(v.begin(), v.end(), 1);
  thrust::inclusive_scan_by_key(k.begin(), k.end(), v.begin(), out.begin());
  std::vector<int> ho(n);
  thrust::copy(out.begin(), out.end(), ho.begin());
  std::printf("inclusive_scan_by_key: %d %d %d %d ... out[4999] = %d\n", ho[0], ho[1], ho[6], ho[7], ho[4999]);
  thrust::exclusive_scan_by_key(k.begin(), k.end(), v.begin(), out.begin(), 100);
  thrust::copy(out.begin(), out.end(), ho.begin());
  std::printf("exclusive_scan_by_key from 100: %d %d %d %d ... out[4999] = %d\n", ho[0], ho[1], ho[6], ho[7], ho[4999]);

  thrust::device_vector<int> flags = {1, 0, 0, 1, 0, 1, 1, 0};
  thrust::device_vector<int> ones(8, 1), seg(8);
  thrust::inclusive_scan_by_key(flags.begin(), flags.end(), ones.begin(), seg.begin(), HeadFlag{});
  print("inclusive by head flags", thrust::host_vector<int>(seg));
  thrust::exclusive_scan_by_key(flags.begin(), flags.end(), ones.begin(), seg.begin(), 0, HeadFlag{}, thrust::plus<int>());
  print("exclusive by head flags", thrust::host_vector<int>(seg));

  std::printf("is_sorted by tens %d, by value %d\n", (int)thrust::is_sorted(tens.begin(), tens.end(), ByTens{}),
              (int)thrust::is_sorted(tens.begin(), tens.end()));
  thrust::device_vector<int> squares = {1, 4, 9, 16, 25};
  thrust::adjacent_difference(squares.begin(), squares.end(), squares.begin());  // in place
  print("adjacent_difference of squares", thrust::host_vector<int>(squares));
  thrust::device_ptr<int> p = thrust::device_malloc<int>(4);
  thrust::sequence(p, p + 4, 10);
  std::printf("device_malloc'd 10..13 sum %d\n", thrust::reduce(p, p + 4));
  thrust::device_free(p);

  std::vector<int> hs(6);
  std::vector<int> hkeys = {1, 1, 2, 2, 2, 3}, hvals = {1, 2, 3, 4, 5, 6};
  thrust::inclusive_scan_by_key(hkeys.begin(), hkeys.end(), hvals.begin(), hs.begin());
  print("host inclusive_scan_by_key", hs);
  return 0;
}
