// Thrust's placeholder expressions as function objects: SAXPY as `a * _1 + _2`,
// predicates (`_1 % 3 == 0`, `_1 > 2 && _1 < 6`), unary minus, a placeholder alone,
// and a placeholder expression called on the host. The values are checked by
// tests/libs/test_libs.cpp; the file also builds with nvcc and CUDA 13's Thrust.
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <cstdio>

using namespace thrust::placeholders;

template <class V>
void print(const char* name, const V& v) {
  thrust::host_vector<typename V::value_type> h = v;
  std::printf("%s:", name);
  for (auto x : h) std::printf(" %g", double(x));
  std::printf("\n");
}

int main() {
  thrust::device_vector<float> x(5), y(5);
  thrust::sequence(x.begin(), x.end(), 1.0f);   // 1 2 3 4 5
  thrust::sequence(y.begin(), y.end(), 10.0f);  // 10 11 12 13 14
  const float a = 2.0f;
  thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), a * _1 + _2);
  print("saxpy 2x + y", y);  // 12 15 18 21 24
  thrust::device_vector<int> n(10);
  thrust::sequence(n.begin(), n.end());  // 0 .. 9
  std::printf("multiples of 3: %d\n", int(thrust::count_if(n.begin(), n.end(), _1 % 3 == 0)));  // 0 3 6 9
  std::printf("in (2, 6): %d\n", int(thrust::count_if(n.begin(), n.end(), _1 > 2 && _1 < 6)));     // 3 4 5
  thrust::device_vector<int> m(10);
  thrust::transform(n.begin(), n.end(), m.begin(), -_1 + 100 - (_1 * _1) / 4);
  print("100 - x - x*x/4", m);
  thrust::transform(n.begin(), n.end(), m.begin(), _1);
  std::printf("identity sum: %d\n", thrust::reduce(m.begin(), m.end()));  // 45
  std::printf("on the host: %g\n", double((_1 * _2 - _3)(3.0, 4.0, 2.0)));  // 10
  return 0;
}
