// simtlab's inner_product, lower_bound/upper_bound/binary_search (vectorized and
// scalar), copy_if, the remove family, unique, unique_count, tabulate, and
// transform_reduce over a zip_iterator into a 12-byte tuple (a reduction of a value
// wider than one shuffle), on the device and on the host. Each line prints what Thrust
// defines it to give (tests/libs/test_libs.cpp holds the expected text).
#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/remove.h>
#include <thrust/sequence.h>
#include <thrust/tabulate.h>
#include <thrust/transform_reduce.h>
#include <thrust/tuple.h>
#include <thrust/unique.h>

#include <cstdio>
#include <vector>

template <class V> void print(const char* what, const V& v) {
  std::printf("%s:", what);
  for (auto x : v) std::printf(" %lld", static_cast<long long>(x));
  std::printf("\n");
}

struct IsMultipleOf3 {
  __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};
struct AbsDiff {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a - b : b - a; }
};
struct Max {
  __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct SquarePlusIndex {
  __host__ __device__ int operator()(long long i) const { return int(i * i + i); }
};
// (count, sum, max) of the items, from (index, value) pairs whose index is even.
using Stats = thrust::tuple<int, int, int>;
struct EvenIndexStats {
  __host__ __device__ Stats operator()(const thrust::tuple<int, int>& t) const {
    const bool even = thrust::get<0>(t) % 2 == 0;
    return Stats(even ? 1 : 0, even ? thrust::get<1>(t) : 0, even ? thrust::get<1>(t) : -1000000);
  }
};
struct CombineStats {
  __host__ __device__ Stats operator()(const Stats& a, const Stats& b) const {
    return Stats(thrust::get<0>(a) + thrust::get<0>(b), thrust::get<1>(a) + thrust::get<1>(b),
                 thrust::get<2>(a) > thrust::get<2>(b) ? thrust::get<2>(a) : thrust::get<2>(b));
  }
};

int main() {
  thrust::device_vector<int> x(1000), y(1000);
  thrust::sequence(x.begin(), x.end());         // 0 .. 999
  thrust::sequence(y.begin(), y.end(), 1000, -1);  // 1000 .. 1
  std::printf("inner_product x.y = %lld\n", (long long)thrust::inner_product(x.begin(), x.end(), y.begin(), 0LL));
  std::printf("max |x - y| = %d\n", thrust::inner_product(x.begin(), x.end(), y.begin(), 0, Max{}, AbsDiff{}));

  thrust::device_vector<int> sorted = {1, 3, 3, 3, 7, 9, 9, 12};
  thrust::device_vector<int> values = {0, 3, 4, 9, 12, 13};
  thrust::device_vector<int> lower(6), upper(6), found(6);
  thrust::lower_bound(sorted.begin(), sorted.end(), values.begin(), values.end(), lower.begin());
  thrust::upper_bound(sorted.begin(), sorted.end(), values.begin(), values.end(), upper.begin());
  thrust::binary_search(sorted.begin(), sorted.end(), values.begin(), values.end(), found.begin());
  print("lower_bound", thrust::host_vector<int>(lower));
  print("upper_bound", thrust::host_vector<int>(upper));
  print("binary_search", thrust::host_vector<int>(found));
  std::printf("scalar: lower_bound(9) at %lld, upper_bound(3) at %lld, binary_search(8) %d\n",
              (long long)(thrust::lower_bound(sorted.begin(), sorted.end(), 9) - sorted.begin()),
              (long long)(thrust::upper_bound(sorted.begin(), sorted.end(), 3) - sorted.begin()),
              (int)thrust::binary_search(sorted.begin(), sorted.end(), 8));
  thrust::device_vector<int> descending = {12, 9, 9, 7, 3};
  thrust::device_vector<int> at(1);
  thrust::device_vector<int> nine = {9};
  thrust::lower_bound(descending.begin(), descending.end(), nine.begin(), nine.end(), at.begin(), thrust::greater<int>());
  print("lower_bound(9) in descending order", thrust::host_vector<int>(at));

  // copy_if over 5000 items (three tiles of DeviceSelect), by value and with a stencil.
  thrust::device_vector<int> multiples(5000);
  auto end = thrust::copy_if(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(5000), multiples.begin(), IsMultipleOf3{});
  std::printf("copy_if multiples of 3 below 5000: %lld, last %d\n", (long long)(end - multiples.begin()), (int)*(end - 1));
  thrust::device_vector<int> stencil = {0, 3, 1, 6, 9};
  thrust::device_vector<int> picked(5);
  auto pend = thrust::copy_if(thrust::counting_iterator<int>(10), thrust::counting_iterator<int>(15), stencil.begin(), picked.begin(),
                              IsMultipleOf3{});
  picked.resize(pend - picked.begin());
  print("copy_if by stencil", thrust::host_vector<int>(picked));

  thrust::device_vector<int> r = {5, 3, 6, 3, 9, 10, 3};
  auto rend = thrust::remove(r.begin(), r.end(), 3);
  r.resize(rend - r.begin());
  print("remove 3", thrust::host_vector<int>(r));
  rend = thrust::remove_if(r.begin(), r.end(), IsMultipleOf3{});
  r.resize(rend - r.begin());
  print("remove_if multiple of 3", thrust::host_vector<int>(r));
  thrust::device_vector<int> rc(7);
  thrust::device_vector<int> src = {1, 2, 3, 4, 5, 6, 7};
  rc.resize(thrust::remove_copy_if(src.begin(), src.end(), rc.begin(), IsMultipleOf3{}) - rc.begin());
  print("remove_copy_if", thrust::host_vector<int>(rc));

  thrust::device_vector<int> u = {1, 1, 2, 2, 2, 1, 3, 3};
  std::printf("unique_count %lld\n", (long long)thrust::unique_count(u.begin(), u.end()));
  u.resize(thrust::unique(u.begin(), u.end()) - u.begin());
  print("unique", thrust::host_vector<int>(u));

  thrust::device_vector<int> tab(6);
  thrust::tabulate(tab.begin(), tab.end(), SquarePlusIndex{});
  print("tabulate i*i + i", thrust::host_vector<int>(tab));

  // transform_reduce into a 12-byte tuple: over 3000 items, two reduction kernels.
  thrust::device_vector<int> data(3000);
  thrust::sequence(data.begin(), data.end(), 7);  // 7 .. 3006
  auto z = thrust::make_zip_iterator(thrust::counting_iterator<int>(0), data.begin());
  Stats s = thrust::transform_reduce(z, z + 3000, EvenIndexStats{}, Stats(0, 0, -1000000), CombineStats{});
  std::printf("even-index stats: count %d sum %d max %d\n", thrust::get<0>(s), thrust::get<1>(s), thrust::get<2>(s));

  // The host forms.
  std::vector<int> h = {4, 8, 15, 16, 23, 42}, hv = {15, 5}, hl(2);
  thrust::lower_bound(h.begin(), h.end(), hv.begin(), hv.end(), hl.begin());
  print("host lower_bound", hl);
  std::vector<int> hc(6);
  hc.resize(thrust::copy_if(h.begin(), h.end(), hc.begin(), IsMultipleOf3{}) - hc.begin());
  print("host copy_if", hc);
  std::printf("host inner_product %d\n", thrust::inner_product(h.begin(), h.begin() + 3, h.begin() + 3, 0));
  return 0;
}
