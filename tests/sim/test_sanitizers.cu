// Planted bugs: each gives one clear diagnostic naming the kernel, block, thread
// and source line, the launch returns CUDA's error code, and the simulator keeps
// working afterwards.
#undef NDEBUG  // device assert is tested here
#include "sim_test_util.hpp"

#include "sim/report/report.hpp"

#include <string>

using namespace simt;
using simt::test::DeviceArray;
using simt::test::Quiet;
using simt::test::last_launch;

namespace {

__global__ void write_past_end(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;  // BUG: no `if (i < n)`
  (void)n;
}

__global__ void missing_barrier(const float* in, float* out) {
  __shared__ float s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  // BUG: __syncthreads() missing here
  out[t] = s[(t + 1) % 64];
}

__global__ void barrier_in_branch(float* out) {
  if (threadIdx.x < 16) __syncthreads();  // BUG: only half the block reaches it
  out[threadIdx.x] = 1.0f;
}

__global__ void reads_uninitialised(float* out) {
  __shared__ float s[32];
  if (threadIdx.x < 16) s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];  // BUG: lanes 16..31 read words nobody wrote
}

__global__ void shared_overflow(float* out) {
  __shared__ float s[32];
  s[threadIdx.x + 1] = 1.0f;  // BUG: thread 31 writes s[32]
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];  // read back: clang would drop an array nothing reads
}

__global__ void trivial(float* out) { out[threadIdx.x] = 2.0f; }

__global__ void uses_dynamic_shared(float* out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 1.0f;
  out[threadIdx.x] = buf[threadIdx.x];
}

__global__ void misaligned_float4(const float* in, float* out) {  // NOLINT
  const float4* p = reinterpret_cast<const float4*>(in + 1);  // BUG: 4 bytes off a 16-byte boundary
  float4 v = p[threadIdx.x];
  out[threadIdx.x] = v.x;
}

__global__ void cross_block_race(float* out) {
  out[0] = float(blockIdx.x);  // BUG: every block writes the same word
}

__global__ void shuffle_with_exited_lane(float* out) {
  if (threadIdx.x == 5) return;  // BUG: lane 5 is named in the mask but has exited
  float v = __shfl_xor_sync(0xffffffff, float(threadIdx.x), 1);
  out[threadIdx.x] = v;
}

__global__ void shuffle_against_barrier(float* out) {
  if (threadIdx.x == 5) {  // BUG: lane 5 waits at a barrier the others never reach
    __syncthreads();
    return;
  }
  out[threadIdx.x] = __shfl_xor_sync(0xffffffff, float(threadIdx.x), 1);
}

__global__ void asserts(const float* in) { assert(in[threadIdx.x] < 10.0f); }

std::string diagnostic_text() {
  REQUIRE(!last_launch().diagnostics.empty());
  return format_diagnostic(last_launch().diagnostics.front());
}

// After any failure the simulator must still run a correct kernel. A fault the GPU
// raises is sticky until then, and every call returns it.
void still_works() {
  const cudaError_t synced = cudaDeviceSynchronize();  // a fault is reported at the next synchronising call
  if (last_launch().error == cudaErrorIllegalAddress || last_launch().error == cudaErrorMisalignedAddress ||
      last_launch().error == cudaErrorAssert) {
    CHECK(synced == last_launch().error);
    void* p = nullptr;
    CHECK(cudaMalloc(&p, 16) == last_launch().error);
    CHECK(cudaGetLastError() == last_launch().error);  // the failed cudaMalloc recorded it
    CHECK(cudaGetLastError() == cudaSuccess);          // read once, as on the H200
    CHECK(cudaMalloc(&p, 16) == last_launch().error);  // still sticky
    forget_sticky_error();
  }
  DeviceArray<float> out(32);
  trivial<<<1, 32>>>(out.ptr);
  CHECK(last_launch().error == 0);
  CHECK(out.host()[7] == 2.0f);
  cudaGetLastError();
}

}  // namespace

TEST_CASE("out-of-bounds global write") {
  Quiet q;
  DeviceArray<float> out(1000);
  write_past_end<<<4, 256>>>(out.ptr, 1000);
  CHECK(last_launch().error == cudaErrorIllegalAddress);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  auto& d = last_launch().diagnostics.at(0);
  CHECK(d.kind == DiagKind::OutOfBoundsGlobal);
  CHECK(d.block.x == 3);      // element 1000 = block 3, thread 232
  CHECK(d.thread.x == 232);
  CHECK(d.location.find("test_sanitizers.cu:") != std::string::npos);
  std::string text = diagnostic_text();
  CHECK(text.find("write_past_end") != std::string::npos);
  CHECK(text.find("0 bytes from the start") == std::string::npos);
  CHECK(text.find("allocation #") != std::string::npos);
  still_works();
}

TEST_CASE("missing __syncthreads is a shared-memory race") {
  Quiet q;
  DeviceArray<float> in(64), out(64);
  missing_barrier<<<1, 64>>>(in.ptr, out.ptr);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::SharedRace);
  CHECK(diagnostic_text().find("__syncthreads() is missing") != std::string::npos);
  still_works();
}

TEST_CASE("__syncthreads inside if (threadIdx.x < 16): runs as on the H200, with a warning naming the barrier") {
  Quiet q;
  DeviceArray<float> out(32);
  barrier_in_branch<<<1, 32>>>(out.ptr);
  CHECK(last_launch().error == 0);  // exited threads count as arrived (CUDA 13 on the H200)
  REQUIRE(last_launch().diagnostics.size() == 1);
  const Diagnostic& d = last_launch().diagnostics[0];
  CHECK(d.kind == DiagKind::ExitedBeforeBarrier);
  CHECK(d.warning);
  CHECK(d.location.find("test_sanitizers.cu:33") != std::string::npos);
  CHECK(d.message.find("reached by threads 0-15; threads 16-31 had exited") != std::string::npos);
  std::vector<float> h = out.host();
  CHECK(h[0] == 1.0f);
  CHECK(h[31] == 1.0f);
  still_works();
}

TEST_CASE("read of uninitialised shared memory") {
  Quiet q;
  DeviceArray<float> out(32);
  reads_uninitialised<<<1, 32>>>(out.ptr);
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::UninitializedShared);
  CHECK(last_launch().diagnostics.at(0).thread.x == 16);
  still_works();
}

TEST_CASE("out-of-bounds shared write names the variable") {
  Quiet q;
  DeviceArray<float> out(32);
  shared_overflow<<<1, 32>>>(out.ptr);
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::OutOfBoundsShared);
  CHECK(last_launch().diagnostics.at(0).thread.x == 31);
  CHECK(diagnostic_text().find("shared_overflow") != std::string::npos);
  still_works();
}

TEST_CASE("a 2048-thread block is refused with CUDA 13's cudaErrorInvalidValue") {
  Quiet q;
  DeviceArray<float> out(2048);
  trivial<<<1, 2048>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);  // launch errors are not sticky
  CHECK(diagnostic_text().find("2048 threads exceeds the device limit of 1024") != std::string::npos);
  trivial<<<0, 32>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorInvalidValue);
  still_works();
}

TEST_CASE("200 KB of shared memory on a 48 KB-per-block device") {
  Quiet q;
  DeviceArray<float> out(32);
  uses_dynamic_shared<<<1, 32, 200 * 1024>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorInvalidValue);
  CHECK(diagnostic_text().find("exceed") != std::string::npos);
  // Opting in raises the limit to the device's maximum (227 KB on the H200).
  CHECK(cudaFuncSetAttribute(uses_dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024) ==
        cudaSuccess);
  uses_dynamic_shared<<<1, 32, 200 * 1024>>>(out.ptr);
  CHECK(last_launch().error == 0);
  still_works();
}

TEST_CASE("misaligned vector load") {
  Quiet q;
  DeviceArray<float> in(256), out(32);
  misaligned_float4<<<1, 32>>>(in.ptr, out.ptr);
  CHECK(last_launch().error == cudaErrorMisalignedAddress);
  still_works();
}

TEST_CASE("blocks writing the same word race") {
  Quiet q;
  // One worker: the blocks run one after the other. On two, blocks writing at the same
  // instant can both miss the other's stamp (docs/exec.md, "What race detection can miss").
  set_worker_count(1);
  DeviceArray<float> out(1);
  cross_block_race<<<2, 1>>>(out.ptr);
  set_worker_count(0);
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::GlobalRace);
  still_works();
}

TEST_CASE("a host pointer passed to a kernel") {
  Quiet q;
  std::vector<float> host(32);
  trivial<<<1, 32>>>(host.data());
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::InvalidAddress);
  CHECK(host[0] == 0.0f);  // the host's memory is untouched
  still_works();
}

TEST_CASE("a shuffle whose mask names an exited lane runs as on the H200: that lane's value reads as 0") {
  Quiet q;
  DeviceArray<float> out(32);
  shuffle_with_exited_lane<<<1, 32>>>(out.ptr);
  CHECK(last_launch().error == 0);  // tests/cuda/shfl_absent_lanes.cu on the H200: no error, 0 from the exited lane
  REQUIRE(last_launch().diagnostics.size() == 1);
  const Diagnostic& d = last_launch().diagnostics[0];
  CHECK(d.kind == DiagKind::ExitedBeforeCollective);
  CHECK(d.warning);
  CHECK(d.message.find("lanes 5 had exited") != std::string::npos);
  std::vector<float> h = out.host();
  CHECK(h[4] == 0.0f);  // lane 4's partner (lane 5) exited
  CHECK(h[6] == 7.0f);  // the others swap with their partner
  CHECK(h[7] == 6.0f);
  CHECK(h[0] == 1.0f);
  still_works();
}

TEST_CASE("a shuffle waiting for a lane that is alive elsewhere is still a deadlock, not a hang") {
  Quiet q;
  DeviceArray<float> out(32);
  shuffle_against_barrier<<<1, 32>>>(out.ptr);
  CHECK(last_launch().diagnostics.at(0).kind == DiagKind::Deadlock);
  CHECK(diagnostic_text().find("wait at __syncthreads()") != std::string::npos);
  still_works();
}

TEST_CASE("device assert fails the launch with cudaErrorAssert") {
  Quiet q;
  DeviceArray<float> in(32);  // in[i] = i % 97: lanes 10.. fail
  asserts<<<1, 32>>>(in.ptr);
  CHECK(last_launch().error == cudaErrorAssert);
  CHECK(last_launch().diagnostics.at(0).thread.x == 10);
  still_works();
}

namespace {
// A one-byte thread-local next to the __shared__ variables must not shift their
// word boundaries (it once made the last word of an array look out of bounds).
thread_local char odd_neighbour = 1;
__global__ void last_word(float* out) {
  __shared__ float s[32];
  s[threadIdx.x] = float(odd_neighbour);
  __syncthreads();
  out[threadIdx.x] = s[31 - threadIdx.x];
}
}  // namespace

TEST_CASE("the last word of a __shared__ array is in bounds") {
  DeviceArray<float> out(32);
  last_word<<<1, 32>>>(out.ptr);
  CHECK(last_launch().error == 0);
}
