// simtlab's thrust/gather.h (gather, gather_if, scatter, scatter_if), zip_iterator with
// thrust::tuple, zip_function, transform_output_iterator and
// transform_input_output_iterator, on the device and on the host. Each line prints what
// Thrust defines it to give (tests/libs/test_libs.cpp holds the expected text).
#include <cuda/std/tuple>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/for_each.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_input_output_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/scatter.h>
#include <thrust/transform.h>
#include <thrust/tuple.h>
#include <thrust/zip_function.h>

#include <cstdio>
#include <vector>

template <class V> void print(const char* what, const V& v) {
  std::printf("%s:", what);
  for (auto x : v) std::printf(" %lld", static_cast<long long>(x));
  std::printf("\n");
}

struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};
struct WeightedSum {  // (a, b, c) -> a + 10 b + 100 c
  __host__ __device__ int operator()(const thrust::tuple<int, int, int>& t) const {
    return thrust::get<0>(t) + 10 * thrust::get<1>(t) + 100 * thrust::get<2>(t);
  }
};
struct Swap {
  __host__ __device__ thrust::tuple<int, int> operator()(const thrust::tuple<int, int>& t) const {
    return thrust::make_tuple(thrust::get<1>(t), thrust::get<0>(t));
  }
};
struct Difference {  // written through a transform_output_iterator
  __host__ __device__ int operator()(const cuda::std::tuple<int, int>& t) const { return cuda::std::get<0>(t) - cuda::std::get<1>(t); }
};
struct TwiceAPlusB {  // three arguments: through make_zip_function
  __host__ __device__ void operator()(const int& a, const int& b, int& out) const { out = 2 * a + b; }
};
struct Times3 {
  __host__ __device__ int operator()(int x) const { return 3 * x; }
};
struct Plus1000 {
  __host__ __device__ int operator()(int x) const { return x + 1000; }
};

int main() {
  thrust::device_vector<int> source = {10, 11, 12, 13, 14, 15, 16, 17};
  thrust::device_vector<int> map = {7, 2, 2, 0, 5};

  thrust::device_vector<int> gathered(5);
  thrust::gather(map.begin(), map.end(), source.begin(), gathered.begin());
  print("gather", thrust::host_vector<int>(gathered));

  thrust::device_vector<int> stencil = {1, 0, 1, 0, 1};
  thrust::device_vector<int> some(5, -1);
  thrust::gather_if(map.begin(), map.end(), stencil.begin(), source.begin(), some.begin());
  print("gather_if stencil 1 0 1 0 1", thrust::host_vector<int>(some));
  thrust::device_vector<int> odd(5, -1);
  thrust::device_vector<int> flags = {3, 4, 5, 6, 7};
  thrust::gather_if(map.begin(), map.end(), flags.begin(), source.begin(), odd.begin(), IsOdd{});
  print("gather_if odd stencil", thrust::host_vector<int>(odd));

  thrust::device_vector<int> where = {6, 1, 3, 0};
  thrust::device_vector<int> scattered(8, 0);
  thrust::scatter(source.begin(), source.begin() + 4, where.begin(), scattered.begin());
  print("scatter", thrust::host_vector<int>(scattered));
  thrust::scatter_if(thrust::counting_iterator<int>(100), thrust::counting_iterator<int>(104), where.begin(), flags.begin(),
                     scattered.begin(), IsOdd{});
  print("scatter_if", thrust::host_vector<int>(scattered));

  // A zip of three device ranges read as tuples, and a zip written through.
  thrust::device_vector<int> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, c = {9, 0, 1, 2};
  thrust::device_vector<int> sums(4);
  auto first = thrust::make_zip_iterator(a.begin(), b.begin(), c.begin());
  thrust::transform(first, first + 4, sums.begin(), WeightedSum{});
  print("zip a + 10 b + 100 c", thrust::host_vector<int>(sums));
  auto ab = thrust::make_zip_iterator(thrust::make_tuple(a.begin(), b.begin()));
  thrust::transform(ab, ab + 4, ab, Swap{});
  print("swapped a", thrust::host_vector<int>(a));
  print("swapped b", thrust::host_vector<int>(b));
  thrust::tuple<int, int> third = *(ab + 2);
  std::printf("zip element 2 on the host: (%d, %d)\n", thrust::get<0>(third), thrust::get<1>(third));
  thrust::device_vector<int> axpy(4);
  auto abz = thrust::make_zip_iterator(a.begin(), b.begin(), axpy.begin());
  thrust::for_each(abz, abz + 4, thrust::make_zip_function(TwiceAPlusB{}));
  print("zip_function 2a + b", thrust::host_vector<int>(axpy));

  // gather through a zip into a transform_output_iterator.
  thrust::device_vector<int> diff(3);
  thrust::device_vector<int> pick = {3, 0, 1};
  thrust::gather(pick.begin(), pick.end(), thrust::make_zip_iterator(a.begin(), c.begin()),
                 thrust::make_transform_output_iterator(diff.begin(), Difference{}));
  print("gather zip into output a - c", thrust::host_vector<int>(diff));

  // transform_input_output_iterator: read as 3x, written as x + 1000.
  thrust::device_vector<int> io = {1, 2, 3};
  auto t = thrust::make_transform_input_output_iterator(io.begin(), Times3{}, Plus1000{});
  thrust::transform(t, t + 3, thrust::make_constant_iterator(5), t, cuda::std::plus<int>());
  print("io 3x + 5 + 1000", thrust::host_vector<int>(io));

  // The same algorithms on the host.
  std::vector<int> h = {10, 11, 12, 13}, hm = {3, 3, 1}, hout(3);
  thrust::gather(hm.begin(), hm.end(), h.begin(), hout.begin());
  print("host gather", hout);
  std::vector<int> hs(4, 0), hw = {2, 0, 3};
  thrust::scatter(thrust::host, hm.begin(), hm.end(), hw.begin(), hs.begin());
  print("host scatter", hs);
  return 0;
}
