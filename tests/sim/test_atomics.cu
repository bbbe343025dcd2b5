// Global atomics as Nsight Compute counts them (sim/count/atomic_rule.hpp): RED when
// the result is unused, ATOM when used; a sector once per round of same-address
// lanes; and the contention counter the time model prices. The expected values are
// the H200's (docs/validation/h200-atomics.md).
#include "sim_test_util.hpp"

using namespace simt;
using simt::test::DeviceArray;
using simt::test::last;
using simt::test::last_launch;

namespace {

__global__ void add_unused(int* words, unsigned k) { atomicAdd(&words[threadIdx.x % k], 1); }
__global__ void add_used(int* words, int* olds) { olds[threadIdx.x] = atomicAdd(&words[threadIdx.x], 1); }
__global__ void exch_and_cas_unused(int* words) {
  atomicExch(&words[threadIdx.x], 1);
  atomicCAS(&words[32 + threadIdx.x], 0, 1);
}
__global__ void max_and_float_unused(unsigned* words, float* f) {
  atomicMax(&words[0], threadIdx.x);
  atomicAdd(&f[threadIdx.x], 1.0f);
}
__global__ void shared_unused(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[0], 1);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[0];
}

}  // namespace

TEST_CASE("an atomic whose result is unused is a RED; a used one, atomicExch and atomicCAS are ATOMs") {
  DeviceArray<int> words(64, 0), olds(32, 0);
  add_unused<<<1, 32>>>(words.ptr, 32);
  REQUIRE(last_launch().error == 0);
  CHECK(last(Counter::GlobalRedRequests) == 1);
  CHECK(last(Counter::GlobalRedSectors) == 4);  // 32 consecutive words, one lane each
  CHECK(last(Counter::GlobalAtomRequests) == 0);
  add_used<<<1, 32>>>(words.ptr, olds.ptr);
  CHECK(last(Counter::GlobalAtomRequests) == 1);
  CHECK(last(Counter::GlobalRedRequests) == 0);
  CHECK(olds.host()[5] == 1);
  exch_and_cas_unused<<<1, 32>>>(words.ptr);
  CHECK(last(Counter::GlobalAtomRequests) == 2);
  CHECK(last(Counter::GlobalRedRequests) == 0);
  DeviceArray<unsigned> u(1, 0u);
  DeviceArray<float> f(32, 0.0f);
  max_and_float_unused<<<1, 32>>>(u.ptr, f.ptr);
  CHECK(last(Counter::GlobalRedRequests) == 2);
  CHECK(u.host()[0] == 31);
}

TEST_CASE("a sector counts once per round: the most lanes on one of its addresses") {
  DeviceArray<int> words(32, 0);
  add_unused<<<1, 32>>>(words.ptr, 1);  // 32 lanes, one word: 32 rounds
  CHECK(last(Counter::GlobalRedSectors) == 32);
  add_unused<<<1, 32>>>(words.ptr, 8);  // 8 words of one sector, 4 lanes each
  CHECK(last(Counter::GlobalRedSectors) == 4);
  add_unused<<<1, 32>>>(words.ptr, 2);
  CHECK(last(Counter::GlobalRedSectors) == 16);
  CHECK(words.host()[0] == 32 + 4 + 16);
}

TEST_CASE("contention: the busiest 512-byte block's rounds, over the launch") {
  DeviceArray<int> words(32, 0);
  add_unused<<<4, 256>>>(words.ptr, 1);  // 32 warps on one word
  CHECK(last(Counter::AtomicHotRounds) == 32 * 32);
  CHECK(last(Counter::AtomicBlocks) == 1);
  add_unused<<<4, 256>>>(words.ptr, 32);  // 32 warps over 32 words: 4 sectors each
  CHECK(last(Counter::AtomicHotRounds) == 32 * 4);
}

TEST_CASE("shared-memory atomics are ATOMS whether or not the result is used") {
  DeviceArray<int> out(1, 0);
  shared_unused<<<1, 32>>>(out.ptr);
  CHECK(last(Counter::SharedAtomInst) == 1);
  CHECK(last(Counter::GlobalRedRequests) == 0);
  CHECK(out.host()[0] == 32);
}
