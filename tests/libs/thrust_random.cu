// thrust/random.h, generate, for_each, thrust::min/max. The host lines are checked
// against this file built by nvcc 13.0 with CUDA 13's Thrust and run on the host (no GPU
// needed for host_vector and the engines): tests/libs/test_libs.cpp holds that output.
// The device lines compare each kernel's values with the same draws made on the host.
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/for_each.h>
#include <thrust/generate.h>
#include <thrust/host_vector.h>
#include <thrust/random.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/transform.h>

#include <cstdio>

// The i-th element's own draw: an engine seeded alike, moved i steps on (Thrust's
// monte_carlo_disjoint_sequences pattern).
struct DrawAt {
  __host__ __device__ int operator()(int i) const {
    thrust::default_random_engine rng(2026);
    rng.discard(static_cast<unsigned long long>(i) * 3);
    thrust::uniform_int_distribution<int> die(1, 6);
    const int first = die(rng), second = die(rng), third = die(rng);  // in order (arguments are not)
    return first * 100 + thrust::min(second, third);
  }
};

struct Unit {
  thrust::minstd_rand0 rng;
  __host__ __device__ float operator()() {
    thrust::uniform_real_distribution<float> u(-1.0f, 1.0f);
    return u(rng);
  }
};

struct Scale {
  __host__ __device__ void operator()(float& x) const { x = thrust::max(x * 2.0f, -3.0f); }
};

int main() {
  thrust::default_random_engine a;
  thrust::minstd_rand0 b(12345u);
  std::printf("minstd_rand:");
  for (int i = 0; i < 4; ++i) std::printf(" %u", a());
  std::printf("\nminstd_rand0(12345):");
  for (int i = 0; i < 4; ++i) std::printf(" %u", b());
  thrust::default_random_engine c(99u), d(99u);
  for (int i = 0; i < 100000; ++i) c();
  d.discard(100000);
  std::printf("\ndiscard(100000) %u %u\n", c(), d());
  thrust::uniform_real_distribution<double> real(-2.0, 3.0);
  thrust::uniform_int_distribution<int> die(1, 6);
  thrust::uniform_int_distribution<long long> wide;
  thrust::default_random_engine e(7u);
  const double r1 = real(e), r2 = real(e);
  std::printf("real %.17g %.17g dice", r1, r2);
  for (int i = 0; i < 8; ++i) std::printf(" %d", die(e));
  std::printf(" wide %lld\n", wide(e));

  thrust::host_vector<int> h(10);
  thrust::generate(h.begin(), h.end(), [&] { return die(e); });
  std::printf("host generate:");
  for (int x : h) std::printf(" %d", x);
  std::printf("\nmin %d max %g\n", thrust::min(3, -4), thrust::max(2.5, 1.5));
  std::fflush(stdout);

  // The device: each element's draw in a kernel, against the same on the host.
  const int n = 1000;
  thrust::device_vector<int> idx(n), draws(n);
  thrust::sequence(idx.begin(), idx.end());
  thrust::transform(idx.begin(), idx.end(), draws.begin(), DrawAt{});
  thrust::host_vector<int> got = draws;
  int same = 0;
  long long sum = 0;
  for (int i = 0; i < n; ++i) {
    same += got[i] == DrawAt{}(i);
    sum += got[i];
  }
  std::printf("device draws equal to the host's: %d of %d, sum %lld, reduce %d\n", same, n, sum,
              thrust::reduce(draws.begin(), draws.end()));
  // generate: every thread calls its own copy of the generator, so all elements are equal.
  thrust::device_vector<float> u(64);
  thrust::generate(u.begin(), u.end(), Unit{thrust::minstd_rand0(5u)});
  thrust::for_each(u.begin(), u.end(), Scale{});
  thrust::host_vector<float> hu = u;
  Unit host_unit{thrust::minstd_rand0(5u)};
  const float expect = thrust::max(host_unit() * 2.0f, -3.0f);
  int equal = 0;
  for (float x : hu) equal += x == expect;
  std::printf("device generate + for_each: %d of 64 equal %.9g\n", equal, expect);
  return 0;
}
