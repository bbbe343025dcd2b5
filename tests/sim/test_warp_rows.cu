// Warp rows (sim/state/warp_log.hpp): a convergent warp's accesses go straight into
// warp instructions and are checked at the barrier; a warp that diverges part way
// through an interval switches to per-lane logs. Counts and diagnostics must not
// depend on which path an access took.
#include "sim_test_util.hpp"

#include "sim/report/report.hpp"

using namespace simt;
using simt::test::DeviceArray;
using simt::test::Quiet;
using simt::test::last;
using simt::test::last_launch;

namespace {

// Three stores between the same two barriers: all lanes, odd lanes, all lanes.
// On the GPU the warp reconverges after the branch: three instructions of 32, 16
// and 32 lanes. Volatile keeps every access (clang would fold the stores into one).
__global__ void diverges_mid_interval(float* out) {
  volatile __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = 1.0f;
  if (t & 1) s[t] = 2.0f;
  s[t] = s[t] + 3.0f;
  __syncthreads();
  out[t] = s[t];
}

// Lane 0 and lane 1 make different first accesses, so warp 0 diverges at once and
// its write is checked as it happens; warp 1 stays convergent and its read of the
// same word is checked at the barrier. The two must still meet.
__global__ void divergent_write_convergent_read(float* out) {
  __shared__ float s[64];
  const int t = threadIdx.x;
  s[t] = 0.0f;
  __syncthreads();
  if (t == 0) s[41] = 2.0f;
  if (t == 1) s[40] = 1.0f;
  if (t >= 32) out[t] = s[40];  // BUG: no barrier between thread 1's write and this read
}

// A tiled loop: in the intervals that only read the tiles, the checks can be
// skipped once every word has been written. A read past what was written must
// still be caught in such an interval.
__global__ void reads_unwritten_in_read_only_interval(float* out, int written) {
  __shared__ float tile[64];
  const int t = threadIdx.x;
  if (t < written) tile[t] = float(t);
  __syncthreads();
  float acc = 0.0f;
  for (int i = 0; i < 64; ++i) acc += tile[i];
  out[t] = acc;
}

}  // namespace

TEST_CASE("a warp that diverges part way through an interval is counted as the GPU reconverges") {
  DeviceArray<float> out(64);
  for (unsigned warps : {1u, 2u}) {
    diverges_mid_interval<<<1, 32 * warps>>>(out.ptr);
    REQUIRE(last_launch().error == 0);
    CHECK(last(Counter::SharedStInst) == 3 * warps);         // 32, 16 and 32 lanes
    CHECK(last(Counter::SharedLdInst) == 2 * warps);         // s[t] + 3, and s[t] after the barrier
    CHECK(last(Counter::SharedStWavefronts) == 3 * warps);
    CHECK(last(Counter::GlobalStRequests) == warps);
    CHECK(last(Counter::FAdd) == 32 * warps);
  }
  auto h = out.host();
  CHECK(h[0] == 4.0f);
  CHECK(h[1] == 5.0f);
}

TEST_CASE("a write checked as it happens and a read checked at the barrier still race") {
  Quiet q;
  DeviceArray<float> out(64);
  divergent_write_convergent_read<<<1, 64>>>(out.ptr);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  REQUIRE(!last_launch().diagnostics.empty());
  const Diagnostic& d = last_launch().diagnostics.front();
  CHECK(d.kind == DiagKind::SharedRace);
  CHECK(d.thread.x >= 32);  // the reader in warp 1
  CHECK(format_diagnostic(d).find("a write by thread (1,0,0)") != std::string::npos);
}

TEST_CASE("read-only intervals skip checks only when every word was written") {
  Quiet q;
  DeviceArray<float> out(64);
  reads_unwritten_in_read_only_interval<<<1, 64>>>(out.ptr, 64);
  CHECK(last_launch().error == 0);
  CHECK(out.host()[5] == 2016.0f);  // 0 + 1 + ... + 63
  reads_unwritten_in_read_only_interval<<<1, 64>>>(out.ptr, 63);
  CHECK(last_launch().error == cudaErrorLaunchFailure);
  REQUIRE(!last_launch().diagnostics.empty());
  CHECK(last_launch().diagnostics.front().kind == DiagKind::UninitializedShared);
}

TEST_CASE("counters do not depend on whether the checks run") {
  DeviceArray<float> out(64);
  diverges_mid_interval<<<1, 64>>>(out.ptr);
  REQUIRE(last_launch().error == 0);
  const Counters with_checks = last_launch().totals;
  checks().races = checks().uninitialized = false;
  diverges_mid_interval<<<1, 64>>>(out.ptr);
  const Counters without = last_launch().totals;
  checks().races = checks().uninitialized = true;
  for (int i = 0; i < kCounterCount; ++i) {
    CAPTURE(i);
    if (static_cast<Counter>(i) == Counter::DramReadBytes || static_cast<Counter>(i) == Counter::DramWriteBytes)
      continue;  // first-touch estimate: the second launch's reads are not first
    CHECK(with_checks.v[i] == without.v[i]);
  }
}
