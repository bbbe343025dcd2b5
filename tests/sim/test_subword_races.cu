// Shared-memory races are judged byte by byte once a word is split by sub-word
// accesses: threads storing the two halves of one word (fp16 tiles) or neighbouring
// bytes (char counters) in one interval do not race, as on a GPU; a thread reading or
// writing a byte another thread wrote in the same interval still does.
#include "sim_test_util.hpp"

#include <cuda_fp16.h>

using namespace simt;
using simt::test::DeviceArray;
using simt::test::Quiet;
using simt::test::last_launch;

namespace {

// One warp stages a 16 x 16 half tile, element by element, twice (two k steps,
// ordered by __syncwarp as a wmma kernel's staging is): neighbours write halves of
// one word in each step, and each lane rewrites its own halves in the next.
__global__ void stage_halves(float* out) {
  __shared__ half tile[256];
  float acc = 0.0f;
  for (int step = 0; step < 2; ++step) {
    for (int i = threadIdx.x; i < 256; i += 32) tile[i] = __float2half(float(i + step));
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32) acc += __half2float(tile[(i + 1) % 256]);
    __syncwarp();
  }
  out[threadIdx.x] = acc;
}

// Byte counters: thread t owns byte t of a 64-byte array (16 words, 4 owners each).
__global__ void byte_counters(int* out) {
  __shared__ unsigned char count[64];
  count[threadIdx.x] = 0;
  for (int i = 0; i < 5; ++i) count[threadIdx.x] += 1;
  __syncthreads();
  out[threadIdx.x] = count[63 - threadIdx.x];
}

// BUG: thread t reads the half its neighbour wrote, with no barrier between.
__global__ void read_neighbours_half(float* out) {
  __shared__ half tile[64];
  tile[threadIdx.x] = __float2half(float(threadIdx.x));
  out[threadIdx.x] = __half2float(tile[threadIdx.x ^ 1]);
}

// BUG: threads of two warps write the same half in one interval.
__global__ void same_half_twice(float* out) {
  __shared__ half tile[32];
  tile[threadIdx.x % 32] = __float2half(float(threadIdx.x));
  __syncthreads();
  out[threadIdx.x] = __half2float(tile[threadIdx.x % 32]);
}

// BUG: a whole-word read of two halves written by two threads, without a barrier.
__global__ void word_over_halves(float* out) {
  __shared__ __align__(4) half tile[64];
  tile[threadIdx.x] = __float2half(1.0f);
  const half2 pair = reinterpret_cast<const half2*>(tile)[threadIdx.x / 2];
  out[threadIdx.x] = __low2float(pair) + __high2float(pair);
}

}  // namespace

TEST_CASE("sub-word shared stores of different bytes of one word do not race") {
  DeviceArray<float> out(32);
  stage_halves<<<1, 32>>>(out.ptr);
  CHECK(last_launch().error == 0);
  CHECK(last_launch().diagnostics.empty());
  DeviceArray<int> counts(64);
  byte_counters<<<1, 64>>>(counts.ptr);
  CHECK(last_launch().error == 0);
  CHECK(last_launch().diagnostics.empty());
  CHECK(counts.host()[0] == 5);
}

TEST_CASE("a sub-word read or write of a byte another thread wrote in the interval is a race") {
  Quiet q;
  DeviceArray<float> out(64);
  read_neighbours_half<<<1, 64>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  REQUIRE_FALSE(last_launch().diagnostics.empty());
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::SharedRace);
  same_half_twice<<<1, 64>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  REQUIRE_FALSE(last_launch().diagnostics.empty());
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::SharedRace);
  word_over_halves<<<1, 64>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  REQUIRE_FALSE(last_launch().diagnostics.empty());
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::SharedRace);
}
