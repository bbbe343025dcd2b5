// simtlab's Thrust fancy iterators (counting, constant, transform, permutation, discard)
// through the algorithms, on the device and on the host. Each line prints what CUDA 13's
// Thrust defines it to give (tests/libs/test_libs.cpp holds the expected text).
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

#include <cstdio>
#include <vector>

struct Square {
  __host__ __device__ long long operator()(int x) const { return 1LL * x * x; }
};

template <class V> void print(const char* what, const V& v) {
  std::printf("%s:", what);
  for (auto x : v) std::printf(" %lld", static_cast<long long>(x));
  std::printf("\n");
}

int main() {
  thrust::counting_iterator<int> first(1), last(101);
  std::printf("reduce 1..100 = %d, squares = %lld\n", thrust::reduce(first, last),
              thrust::reduce(thrust::make_transform_iterator(first, Square{}),
                             thrust::make_transform_iterator(last, Square{})));

  thrust::device_vector<int> seq(first, first + 8);  // a device_vector from a counting range
  print("device_vector(counting)", thrust::host_vector<int>(seq));

  thrust::device_vector<int> sums(8);
  thrust::transform(seq.begin(), seq.end(), thrust::make_constant_iterator(10), sums.begin(), thrust::plus<int>());
  print("seq + constant 10", thrust::host_vector<int>(sums));

  // permutation_iterator: a gather when read, a scatter when written.
  thrust::device_vector<int> source = {10, 20, 30, 40, 50, 60};
  thrust::device_vector<int> map = {5, 0, 3, 3};
  thrust::device_vector<int> gathered(4);
  thrust::copy(thrust::make_permutation_iterator(source.begin(), map.begin()),
               thrust::make_permutation_iterator(source.begin(), map.end()), gathered.begin());
  print("gather", thrust::host_vector<int>(gathered));
  std::printf("reduce of the gather = %d\n", thrust::reduce(thrust::make_permutation_iterator(source.begin(), map.begin()),
                                                           thrust::make_permutation_iterator(source.begin(), map.end())));
  thrust::device_vector<int> scattered(6, -1);
  thrust::device_vector<int> where = {4, 2, 0};
  thrust::copy(first, first + 3, thrust::make_permutation_iterator(scattered.begin(), where.begin()));
  print("scatter 1 2 3 to 4 2 0", thrust::host_vector<int>(scattered));

  // A fancy device range to the host: through a device buffer.
  std::vector<long long> host(5);
  thrust::copy(thrust::make_transform_iterator(seq.begin(), Square{}), thrust::make_transform_iterator(seq.begin() + 5, Square{}),
               host.begin());
  print("squares to the host", host);

  // From the host to a fancy device output, and into a discard_iterator.
  std::vector<int> values = {7, 8, 9};
  thrust::copy(values.begin(), values.end(), thrust::make_permutation_iterator(scattered.begin(), where.begin()));
  print("host 7 8 9 scattered", thrust::host_vector<int>(scattered));
  auto end = thrust::copy(seq.begin(), seq.end(), thrust::make_discard_iterator());
  std::printf("discarded %lld\n", static_cast<long long>(end - thrust::make_discard_iterator()));

  // The same iterators on the host (host_vector: the standard library's algorithms).
  thrust::host_vector<int> h(first, first + 4);
  print("host_vector(counting)", h);
  std::printf("host gather reduce = %d\n",
              thrust::reduce(thrust::host, thrust::make_permutation_iterator(h.begin(), thrust::counting_iterator<int>(1)),
                             thrust::make_permutation_iterator(h.begin(), thrust::counting_iterator<int>(4))));
  return 0;
}
