// The pieces deferred repeats stand on (sim/shortcuts/deferred_launches.hpp): footprint runs
// merged and compared, a snapshot of device memory put back over chosen sectors, and
// the queue run before a host access that meets it, in order, and not before one
// that does not. End to end under `simt exec`: tests/frontend/deferred_repeats.cu.
#include "sim_test_util.hpp"

#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/shortcuts/memory_snapshot.hpp"

#include <string>

using namespace simt;
using namespace simt::test;

namespace {

SectorRuns runs(std::initializer_list<SectorRun> r) { return SectorRuns(r); }

// Appends its tag to `log` when run.
struct Tagged final : DeferredWork {
  std::string& log;
  char tag;
  Tagged(std::string& l, char t) : log(l), tag(t) {}
  void run() override { log += tag; }
};

LaunchFootprint footprint_of(const void* p, std::size_t bytes, bool writes) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  LaunchFootprint f;
  f.touched = runs({{a / 32, (a + bytes + 31) / 32}});
  if (writes) f.written = f.touched;
  return f;
}

}  // namespace

TEST_CASE("footprint runs merge into sorted disjoint runs, and compare exactly") {
  const SectorRuns m = merge_runs(runs({{0, 4}, {10, 12}}), runs({{3, 6}, {12, 13}, {20, 21}}));
  REQUIRE(m.size() == 3);
  CHECK((m[0].begin == 0 && m[0].end == 6));
  CHECK((m[1].begin == 10 && m[1].end == 13));  // touching runs join
  CHECK((m[2].begin == 20 && m[2].end == 21));
  LaunchFootprint a, b;
  a.touched = b.touched = m;
  CHECK(same_footprint(a, b));
  b.written = runs({{0, 1}});
  CHECK_FALSE(same_footprint(a, b));
  b.written.clear();
  b.known = false;
  CHECK_FALSE(same_footprint(a, b));  // an unknown footprint is never assumed equal
}

TEST_CASE("a snapshot puts back exactly the sectors asked for") {
  DeviceArray<float> x(64);  // 256 bytes: 8 sectors
  const MemorySnapshot before = MemorySnapshot::take();
  CHECK(before.bytes() >= 256);
  std::vector<float> h(64, -1.0f);
  REQUIRE(cudaMemcpy(x.ptr, h.data(), sizeof(float) * 64, cudaMemcpyHostToDevice) == cudaSuccess);
  const auto a = reinterpret_cast<std::uintptr_t>(x.ptr);
  before.restore(runs({{a / 32 + 1, a / 32 + 2}}));  // the second sector: elements 8-15
  const std::vector<float> after = x.host();
  CHECK(after[7] == -1.0f);
  CHECK(after[8] == float(8 % 97));
  CHECK(after[15] == float(15 % 97));
  CHECK(after[16] == -1.0f);
  before.restore_all();
  CHECK(x.host()[40] == float(40 % 97));
}

TEST_CASE("the queue runs in order before a host access that meets it, and only then") {
  DeviceArray<float> x(64), y(64);
  DeferredLaunches& q = DeferredLaunches::instance();
  REQUIRE(q.empty());
  std::string log;
  q.add(std::make_unique<Tagged>(log, 'a'), footprint_of(x.ptr, 256, true));
  q.add(std::make_unique<Tagged>(log, 'b'), footprint_of(x.ptr, 128, false));
  CHECK(q.conflicts_with(footprint_of(x.ptr + 60, 8, false)));   // reads what the queue writes
  CHECK_FALSE(q.conflicts_with(footprint_of(y.ptr, 256, true)));  // elsewhere
  q.before_host_access(y.ptr, 256);
  CHECK(log.empty());
  q.before_host_access(x.ptr + 63, 4);
  CHECK(log == "ab");
  CHECK(q.empty());
}
