// Identical repeated launches in process (sim/shortcuts/repeat_launch.hpp): a pure
// kernel's repeat is not executed and carries the first launch's counters; an
// in-place one runs every time; a host write into its input, a different
// argument or clearing the records makes the next launch run.
#include "sim_test_util.hpp"

#include "sim/shortcuts/launch.hpp"
#include "sim/shortcuts/repeat_launch.hpp"

using namespace simt;
using namespace simt::test;

namespace {

__global__ void twice(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];
}

__global__ void bump(float* x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] + 1.0f;
}

}  // namespace

// Pure mode: skipped repeats only, none deferred (deferral: tests/frontend/deferred_repeats.cu).
struct PureRepeats {
  PureRepeats() { RepeatLaunches::instance().set_mode(RepeatMode::Pure); }
  ~PureRepeats() { RepeatLaunches::instance().set_mode(RepeatMode::Defer); }
};

TEST_CASE("a pure launch repeated is skipped until its input changes") {
  PureRepeats pure;
  clear_launch_records();
  DeviceArray<float> in(256), out(256);
  for (int k = 0; k < 3; ++k) twice<<<2, 128>>>(in.ptr, out.ptr);
  REQUIRE(launch_records().size() == 3);
  CHECK(launch_records()[0].repeat_of == 0);
  CHECK(launch_records()[1].repeat_of == 1);
  CHECK(launch_records()[2].repeat_of == 1);
  CHECK(launch_records()[2].totals[Counter::GlobalLdSectors] == launch_records()[0].totals[Counter::GlobalLdSectors]);

  std::vector<float> h(256, 5.0f);
  REQUIRE(cudaMemcpy(in.ptr, h.data(), 256 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  twice<<<2, 128>>>(in.ptr, out.ptr);
  CHECK(launch_records().back().repeat_of == 0);  // the copy wrote what it reads
  REQUIRE(cudaMemcpy(h.data(), out.ptr, 256 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[17] == 10.0f);

  twice<<<2, 128>>>(out.ptr, in.ptr);  // other arguments
  CHECK(launch_records().back().repeat_of == 0);
  clear_launch_records();
  twice<<<2, 128>>>(out.ptr, in.ptr);  // the records it would point at are gone
  CHECK(launch_records().back().repeat_of == 0);
}

TEST_CASE("an in-place launch repeated runs every time; with skipping off every launch runs") {
  PureRepeats pure;
  clear_launch_records();
  DeviceArray<float> x(128);
  for (int k = 0; k < 3; ++k) bump<<<1, 128>>>(x.ptr);
  for (const LaunchRecord& r : launch_records()) CHECK(r.repeat_of == 0);
  std::vector<float> h(128);
  REQUIRE(cudaMemcpy(h.data(), x.ptr, 128 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[5] == 8.0f);  // 5 % 97 + 3

  DeviceArray<float> in(128), out(128);
  RepeatLaunches::instance().set_mode(RepeatMode::Never);
  twice<<<1, 128>>>(in.ptr, out.ptr);
  twice<<<1, 128>>>(in.ptr, out.ptr);
  CHECK(launch_records().back().repeat_of == 0);
}
