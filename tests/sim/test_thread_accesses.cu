// The per-thread global-access tally (SIMT_OPTIONS=thread_accesses=1,
// sim/count/thread_tally.hpp) on kernels whose counts are known by hand: what
// `simt lab check`'s per-thread limits read from the launch JSON.
#include "sim_test_util.hpp"

#include "sim/options/runtime_options.hpp"

#include <cstdint>
#include <string>

using namespace simt;
using simt::test::DeviceArray;
using simt::test::last_launch;

namespace {

__global__ void map_once(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * 2.0f;
}

// volatile: the second read is a load of its own, on its own line.
__global__ void read_twice(const volatile float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = a[i];
  float y = a[i];
  out[i] = x + y;
}
constexpr int kReadTwiceLine = __LINE__ - 3;  // the second read

// volatile: three stores, not one vector store and another (SLP vectorizer).
__global__ void thread0_writes(volatile float* out) {
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3 + 0] = 1.0f;
    out[blockIdx.x * 3 + 1] = 2.0f;
    out[blockIdx.x * 3 + 2] = 3.0f;
  }
}

// Block (1,0)'s thread (1,1) writes four times, thread (0,0) of every block three.
__global__ void one_busy_thread(volatile float* out) {
  const unsigned b = blockIdx.y * gridDim.x + blockIdx.x;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    for (int k = 0; k < 3; ++k) out[b * 8 + k] = float(k);
  if (blockIdx.x == 1 && blockIdx.y == 0 && threadIdx.x == 1 && threadIdx.y == 1)
    for (int k = 3; k < 7; ++k) out[b * 8 + k] = float(k);
}

// Every thread adds once to c[0]; each warp's lane 0 also to c[1] (same allocation).
__global__ void add_up(int* c) {
  atomicAdd(&c[0], 1);
  if (threadIdx.x % 32 == 0) atomicAdd(&c[1], 1);
}

// Even lanes read a once, odd lanes twice, the second on a line of its own: the warp's
// lanes diverge. volatile: the two reads stay in order.
__global__ void split_by_lane(const volatile float* a, float* out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0) {
    out[i] = a[i];
  } else {
    float x = a[i] * 3.0f;
    out[i] = x + a[(i + 1) % n];
  }
}
constexpr int kSplitSecondReadLine = __LINE__ - 3;

__global__ void map_untallied(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + 1.0f;
}

// The option for one test case, as $SIMT_OPTIONS would set it.
struct Tally {
  bool was = runtime_options().thread_accesses;
  explicit Tally(bool on) { mutable_runtime_options().thread_accesses = on; }
  ~Tally() { mutable_runtime_options().thread_accesses = was; }
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;
};

const ThreadAccessTotal& entry(const LaunchRecord& r, const void* buffer, MemOp op) {
  REQUIRE(r.thread_accesses.has_value());
  for (const ThreadAccessTotal& t : *r.thread_accesses)
    if (t.base == reinterpret_cast<std::uintptr_t>(buffer) && t.op == op) return t;
  FAIL("no entry for the buffer and op");
  static ThreadAccessTotal none;
  return none;
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

TEST_CASE("thread accesses: a map reads and writes once per thread, and the JSON says so") {
  Tally on(true);
  DeviceArray<float> a(256), out(256);
  map_once<<<4, 64>>>(a.ptr, out.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  REQUIRE(r.thread_accesses.has_value());
  CHECK(r.thread_accesses->size() == 2);
  const ThreadAccessTotal& rd = entry(r, a.ptr, MemOp::Load);
  CHECK(rd.bytes == 256 * sizeof(float));
  CHECK(rd.total == 256);
  CHECK(rd.max_per_thread == 1);
  CHECK(rd.max_per_block == 64);
  CHECK(rd.worst_block == 0);  // a tie: the first thread of the first block
  CHECK(rd.worst_thread == 0);
  const ThreadAccessTotal& wr = entry(r, out.ptr, MemOp::Store);
  CHECK(wr.total == 256);
  CHECK(wr.max_per_thread == 1);
  CHECK(wr.max_per_block == 64);

  const nlohmann::json j = launch_json(r);
  REQUIRE(j.contains("thread_accesses"));
  REQUIRE(j["thread_accesses"].size() == 2);
  bool found_read = false;
  for (const auto& e : j["thread_accesses"]) {
    if (e["op"].get<std::string>() != "read") continue;
    found_read = true;
    CHECK(e["allocation"].get<std::uint64_t>() == reinterpret_cast<std::uintptr_t>(a.ptr));
    CHECK(e["bytes"].get<std::uint64_t>() == 1024);
    CHECK(e["total"].get<std::uint64_t>() == 256);
    CHECK(e["max_per_thread"].get<std::uint64_t>() == 1);
    CHECK(e["max_per_block"].get<std::uint64_t>() == 64);
    CHECK(e["worst_thread"]["block"].dump() == "[0,0,0]");
    CHECK(e["worst_thread"]["thread"].dump() == "[0,0,0]");
    CHECK(ends_with(e["file"].get<std::string>(), "test_thread_accesses.cu"));
    CHECK(e["line"].get<int>() > 0);
  }
  CHECK(found_read);

  // A skipped repeat copies its original's record, the tally with it.
  map_once<<<4, 64>>>(a.ptr, out.ptr);
  const LaunchRecord& again = last_launch();
  CHECK(again.repeat_of != 0);
  REQUIRE(again.thread_accesses.has_value());
  CHECK(entry(again, a.ptr, MemOp::Load).total == 256);
}

TEST_CASE("thread accesses: two reads of one element count twice, at the second read's line") {
  Tally on(true);
  DeviceArray<float> a(64), out(64);
  read_twice<<<2, 32>>>(a.ptr, out.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  const ThreadAccessTotal& rd = entry(r, a.ptr, MemOp::Load);
  CHECK(rd.total == 128);
  CHECK(rd.max_per_thread == 2);
  CHECK(rd.max_per_block == 64);
  const nlohmann::json j = launch_json(r);
  for (const auto& e : j["thread_accesses"])
    if (e["op"].get<std::string>() == "read") CHECK(e["line"].get<int>() == kReadTwiceLine);
}

TEST_CASE("thread accesses: per-block sums, and the busiest thread named by block and thread") {
  Tally on(true);
  DeviceArray<float> out(3 * 3);
  thread0_writes<<<3, 64>>>(out.ptr);
  REQUIRE(last_launch().error == 0);
  const ThreadAccessTotal& w = entry(last_launch(), out.ptr, MemOp::Store);
  CHECK(w.total == 9);
  CHECK(w.max_per_thread == 3);
  CHECK(w.max_per_block == 3);
  CHECK(last_launch().thread_accesses->size() == 1);

  DeviceArray<float> out2(4 * 8);
  one_busy_thread<<<dim3(2, 2), dim3(32, 2)>>>(out2.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  const ThreadAccessTotal& busy = entry(r, out2.ptr, MemOp::Store);
  CHECK(busy.total == 4 * 3 + 4);
  CHECK(busy.max_per_thread == 4);
  CHECK(busy.max_per_block == 3 + 4);
  CHECK(busy.worst_block == 1);
  CHECK(busy.worst_thread == 33);  // thread (1,1) of a 32x2 block
  const nlohmann::json e = launch_json(r)["thread_accesses"][0];
  CHECK(e["op"].get<std::string>() == "write");
  CHECK(e["worst_thread"]["block"].dump() == "[1,0,0]");
  CHECK(e["worst_thread"]["thread"].dump() == "[1,1,0]");
}

TEST_CASE("thread accesses: atomics are tallied on their own") {
  Tally on(true);
  DeviceArray<int> c(2, 0);
  add_up<<<2, 64>>>(c.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  REQUIRE(r.thread_accesses->size() == 1);
  const ThreadAccessTotal& at = entry(r, c.ptr, MemOp::Atomic);
  CHECK(at.total == 2 * 64 + 2 * 2);
  CHECK(at.max_per_thread == 2);
  CHECK(at.max_per_block == 64 + 2);
  CHECK(at.worst_thread == 0);
  CHECK(launch_json(r)["thread_accesses"][0]["op"].get<std::string>() == "atomic");
}

TEST_CASE("thread accesses: a divergent warp's lanes are tallied one by one") {
  Tally on(true);
  DeviceArray<float> a(64), out(64);
  split_by_lane<<<1, 64>>>(a.ptr, out.ptr, 64);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  const ThreadAccessTotal& rd = entry(r, a.ptr, MemOp::Load);
  CHECK(rd.total == 32 * 1 + 32 * 2);
  CHECK(rd.max_per_thread == 2);
  CHECK(rd.max_per_block == 96);
  CHECK(rd.worst_thread == 1);  // the first odd lane
  const ThreadAccessTotal& wr = entry(r, out.ptr, MemOp::Store);
  CHECK(wr.total == 64);
  CHECK(wr.max_per_thread == 1);
  for (const auto& e : launch_json(r)["thread_accesses"])
    if (e["op"].get<std::string>() == "read") CHECK(e["line"].get<int>() == kSplitSecondReadLine);
}

TEST_CASE("thread accesses: off (the default), no tally and no field in the JSON") {
  CHECK_FALSE(Options{}.thread_accesses);
  Tally off(false);
  DeviceArray<float> a(64), out(64);
  map_untallied<<<2, 32>>>(a.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  CHECK_FALSE(last_launch().thread_accesses.has_value());
  CHECK_FALSE(launch_json(last_launch()).contains("thread_accesses"));
}
