// Execution semantics: barriers, shuffles, votes, atomics, divergence, 3-D
// indexing, dynamic shared memory. Each result is computed independently on the host.
#include "sim_test_util.hpp"

#include <algorithm>
#include <numeric>

using namespace simt;
using simt::test::DeviceArray;
using simt::test::last;
using simt::test::last_launch;

namespace {

__global__ void block_sum(const float* in, float* out) {
  __shared__ float s[128];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (unsigned stride = 64; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void shuffles(const int* in, int* out) {
  int lane = threadIdx.x;
  int v = in[lane];
  out[0 * 32 + lane] = __shfl_sync(0xffffffff, v, 3);               // everyone reads lane 3
  out[1 * 32 + lane] = __shfl_up_sync(0xffffffff, v, 2);            // lanes 0,1 keep their own
  out[2 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 5);          // lanes 27..31 keep their own
  out[3 * 32 + lane] = __shfl_xor_sync(0xffffffff, v, 1);           // swap neighbours
  out[4 * 32 + lane] = __shfl_sync(0xffffffff, v, 1, 8);            // lane 1 of each group of 8
  out[5 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 4, 16);      // within halves
}

__global__ void votes(const int* in, unsigned* out) {
  int lane = threadIdx.x;
  int p = in[lane] % 3 == 0;
  out[0 * 32 + lane] = __ballot_sync(0xffffffff, p);
  out[1 * 32 + lane] = __any_sync(0xffffffff, lane == 17);
  out[2 * 32 + lane] = __all_sync(0xffffffff, lane < 32);
  out[3 * 32 + lane] = __all_sync(0xffffffff, lane < 31);
  unsigned m = 0;
  if (lane % 4 == 0) m = __activemask();  // only the lanes in this branch
  out[4 * 32 + lane] = m;
  out[5 * 32 + lane] = __syncthreads_count(lane < 10);
}

__global__ void warp_reduce(const float* in, float* out) {
  float v = in[blockIdx.x * 32 + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void atomics(int* counter, float* fsum, unsigned* umax, int* cas_winner) {
  __shared__ int local;
  if (threadIdx.x == 0) local = 0;
  __syncthreads();
  atomicAdd(&local, 1);
  atomicAdd(counter, 1);
  atomicAdd(fsum, 0.5f);
  atomicMax(umax, blockIdx.x * blockDim.x + threadIdx.x);
  atomicCAS(cas_winner, -1, int(blockIdx.x));
  __syncthreads();
  if (threadIdx.x == 0) atomicSub(counter, local - int(blockDim.x));  // local == blockDim.x: subtracts 0
}

__global__ void divergent(float* out) {
  int t = threadIdx.x;
  float x = float(t);
  if (t % 2 == 0) x = x * 3.0f;  // half the lanes: a warp instruction with 16 active lanes (x * 2 would become x + x)
  out[t] = x;
}

__global__ void index3d(int* out) {
  int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int threads = blockDim.x * blockDim.y * blockDim.z;
  out[bx * threads + tx] = bx * 1000 + tx;
}

__global__ void dynamic_shared(const float* in, float* out, int n) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  buf[t] = in[t];
  __syncthreads();
  out[t] = buf[n - 1 - t];  // reverse through shared memory
}

}  // namespace

TEST_CASE("barriers order a shared-memory tree reduction") {
  std::vector<float> h(4 * 128);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = float(i % 13);
  DeviceArray<float> in(h.size()), out(4);
  cudaMemcpy(in.ptr, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  block_sum<<<4, 128>>>(in.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  auto got = out.host();
  for (int b = 0; b < 4; ++b) CHECK(got[b] == std::accumulate(h.begin() + b * 128, h.begin() + (b + 1) * 128, 0.0f));
}

TEST_CASE("every shuffle variant, with widths") {
  DeviceArray<int> in(32), out(6 * 32);
  shuffles<<<1, 32>>>(in.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  auto o = out.host();
  for (int l = 0; l < 32; ++l) {  // in[l] == l
    CAPTURE(l);
    CHECK(o[0 * 32 + l] == 3);
    CHECK(o[1 * 32 + l] == (l >= 2 ? l - 2 : l));
    CHECK(o[2 * 32 + l] == (l + 5 < 32 ? l + 5 : l));
    CHECK(o[3 * 32 + l] == (l ^ 1));
    CHECK(o[4 * 32 + l] == (l & ~7) + 1);
    CHECK(o[5 * 32 + l] == ((l % 16) + 4 < 16 ? l + 4 : l));
  }
  CHECK(last(Counter::WarpCollectives) == 6);
}

TEST_CASE("votes, __activemask in a branch, __syncthreads_count") {
  DeviceArray<int> in(32);
  DeviceArray<unsigned> out(6 * 32);
  votes<<<1, 32>>>(in.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  auto o = out.host();
  unsigned ballot = 0, every4 = 0;
  for (int l = 0; l < 32; ++l) ballot |= (l % 3 == 0 ? 1u : 0u) << l, every4 |= (l % 4 == 0 ? 1u : 0u) << l;
  for (int l = 0; l < 32; ++l) {
    CAPTURE(l);
    CHECK(o[0 * 32 + l] == ballot);
    CHECK(o[1 * 32 + l] == 1);
    CHECK(o[2 * 32 + l] == 1);
    CHECK(o[3 * 32 + l] == 0);
    CHECK(o[4 * 32 + l] == (l % 4 == 0 ? every4 : 0u));
    CHECK(o[5 * 32 + l] == 10);
  }
}

TEST_CASE("warp-shuffle reduction") {
  DeviceArray<float> in(8 * 32), out(8);
  warp_reduce<<<8, 32>>>(in.ptr, out.ptr);
  auto got = out.host();
  for (int b = 0; b < 8; ++b) {
    float want = 0;
    for (int l = 0; l < 32; ++l) want += float((b * 32 + l) % 97);
    CHECK(got[b] == want);
  }
}

TEST_CASE("atomics on global and shared memory, int, unsigned and float") {
  DeviceArray<int> counter(1, 0), winner(1, 0);
  DeviceArray<float> fsum(1, 0.0f);
  DeviceArray<unsigned> umax(1, 0u);
  int minus_one = -1;
  cudaMemcpy(winner.ptr, &minus_one, 4, cudaMemcpyHostToDevice);
  atomics<<<6, 64>>>(counter.ptr, fsum.ptr, umax.ptr, winner.ptr);
  REQUIRE(last_launch().error == 0);
  CHECK(counter.host()[0] == 6 * 64);
  CHECK(fsum.host()[0] == 6 * 64 * 0.5f);  // exact: small multiples of 0.5
  CHECK(umax.host()[0] == 6 * 64 - 1);
  int w = winner.host()[0];
  CHECK((w >= 0 && w < 6));
  CHECK(last(Counter::GlobalAtomRequests) > 0);
  CHECK(last(Counter::SharedAtomInst) == 6 * 2);  // one per warp: 2 warps x 6 blocks
}

TEST_CASE("divergence lowers the average active lanes") {
  DeviceArray<float> out(32);
  divergent<<<1, 32>>>(out.ptr);
  // The FMUL runs on 16 lanes: 1 warp instruction, 16 thread instructions.
  CHECK(last(Counter::FMul) == 16);
  auto& r = last_launch();
  CHECK(r.totals[Counter::ThreadInst] < 32 * r.totals[Counter::WarpInst]);
  auto o = out.host();
  for (int t = 0; t < 32; ++t) CHECK(o[t] == float(t % 2 == 0 ? 3 * t : t));
}

TEST_CASE("3-D grids and blocks") {
  dim3 grid(2, 3, 4), block(4, 2, 2);
  const int threads = 16, blocks = 24;
  DeviceArray<int> out(blocks * threads);
  index3d<<<grid, block>>>(out.ptr);
  REQUIRE(last_launch().error == 0);
  auto o = out.host();
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) CHECK(o[b * threads + t] == b * 1000 + t);
}

TEST_CASE("dynamic shared memory") {
  DeviceArray<float> in(64), out(64);
  dynamic_shared<<<1, 64, 64 * sizeof(float)>>>(in.ptr, out.ptr, 64);
  REQUIRE(last_launch().error == 0);
  CHECK(last_launch().dynamic_shared_bytes == 256);
  auto o = out.host();
  for (int t = 0; t < 64; ++t) CHECK(o[t] == float((63 - t) % 97));
}

TEST_CASE("results and counters do not depend on the number of host threads") {
  DeviceArray<float> in(64 * 128), out(64);
  set_worker_count(1);
  block_sum<<<64, 128>>>(in.ptr, out.ptr);
  auto one = last_launch().totals;
  auto r1 = out.host();
  set_worker_count(2);
  block_sum<<<64, 128>>>(in.ptr, out.ptr);
  set_worker_count(0);
  CHECK(last_launch().totals.v == one.v);
  CHECK(out.host() == r1);
}

namespace {

// A device function with its own static __shared__ buffer, used by a kernel.
__device__ float block_max(float v) {
  static __shared__ float scratch[64];
  scratch[threadIdx.x] = v;
  __syncthreads();
  float m = scratch[0];
  for (int i = 1; i < 64; ++i) m = fmaxf(m, scratch[i]);
  __syncthreads();
  return m;
}

__global__ void uses_device_shared(const float* in, float* out) { out[threadIdx.x] = block_max(in[threadIdx.x]); }

// Type and non-type template parameters, and a specialisation.
template <class T, int Scale>
struct Scaler {
  __device__ static T apply(T x) { return x * T(Scale); }
};
template <int Scale>
struct Scaler<double, Scale> {
  __device__ static double apply(double x) { return x * double(Scale) + double(0.5); }
};

template <class T, int Scale>
__global__ void scale_kernel(const T* in, T* out) {
  out[threadIdx.x] = Scaler<T, Scale>::apply(in[threadIdx.x]);
}

}  // namespace

TEST_CASE("static __shared__ inside a device function") {
  DeviceArray<float> in(64), out(64);
  uses_device_shared<<<1, 64>>>(in.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  CHECK(out.host()[5] == 63.0f);  // max of i % 97 for i < 64
}

TEST_CASE("template kernels: type and non-type parameters, specialisations") {
  DeviceArray<float> fin(32), fout(32);
  DeviceArray<double> din(32), dout(32);
  scale_kernel<float, 3><<<1, 32>>>(fin.ptr, fout.ptr);
  CHECK(last_launch().kernel == "scale_kernel<float, 3>");
  CHECK(fout.host()[7] == 21.0f);
  scale_kernel<double, 2><<<1, 32>>>(din.ptr, dout.ptr);
  CHECK(dout.host()[7] == 14.5);
  CHECK(last(Counter::DMul) == 32);
  CHECK(last(Counter::DAdd) == 32);
}
