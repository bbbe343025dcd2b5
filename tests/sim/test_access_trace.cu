// The warp trace (SIMT_OPTIONS=trace_warps=N, sim/count/warp_trace.hpp): each lane's
// address for the first N warp-level accesses of each source line, what
// plots/access_pattern.py and plots/bank_map.py draw, on patterns known by hand.
#include "sim_test_util.hpp"

#include "sim/exec/executor.hpp"
#include "sim/options/runtime_options.hpp"

#include <cstdint>
#include <set>
#include <string>

using namespace simt;
using simt::test::DeviceArray;
using simt::test::last_launch;

namespace {

__global__ void coalesced_load(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = a[i];
  out[i] = x;
}
constexpr int kCoalescedLine = __LINE__ - 3;

__global__ void strided_load(const float* a, float* out, int tag) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = a[i * 32];
  out[i] = x + float(tag);
}
constexpr int kStridedLine = __LINE__ - 3;

// A 32x32 tile written by rows and read by columns: warp w (threadIdx.y == w) reads
// column w, 32 words 128 bytes apart, all in bank w.
__global__ void column_read(const float* a, float* out) {
  __shared__ float tile[32][32];
  const unsigned i = threadIdx.y * 32 + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = a[i];
  __syncthreads();
  const float x = tile[threadIdx.x][threadIdx.y];
  out[blockIdx.x * 1024 + i] = x;
}
constexpr int kColumnLine = __LINE__ - 3;
constexpr int kRowStoreLine = kColumnLine - 2;

// Only the even lanes load.
__global__ void even_lanes(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x % 2 == 0) {
    const float x = a[i];
    out[i] = x;
  }
}
constexpr int kEvenLine = __LINE__ - 4;

__global__ void untraced(const float* a, float* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + 1.0f;
}

// The option for one test case, as $SIMT_OPTIONS would set it.
struct Trace {
  std::uint64_t was = runtime_options().trace_warps;
  explicit Trace(std::uint64_t n) { mutable_runtime_options().trace_warps = n; }
  ~Trace() { mutable_runtime_options().trace_warps = was; }
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;
};

// The trace's entries of one line of this file, in order.
std::vector<nlohmann::json> at_line(const nlohmann::json& launch, int line) {
  std::vector<nlohmann::json> out;
  for (const auto& e : launch.at("access_trace"))
    if (e["line"].get<int>() == line) out.push_back(e);
  return out;
}

std::set<std::uint64_t> sectors(const nlohmann::json& e) {
  std::set<std::uint64_t> s;
  for (const auto& a : e["addresses"])
    if (!a.is_null()) s.insert(a.get<std::uint64_t>() / 32);
  return s;
}

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

}  // namespace

TEST_CASE("access trace: a coalesced load, 32 consecutive floats in 4 sectors") {
  Trace on(2);
  DeviceArray<float> a(256), out(256);
  coalesced_load<<<4, 64>>>(a.ptr, out.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  REQUIRE(r.access_trace.has_value());
  const nlohmann::json j = launch_json(r);
  REQUIRE(j.contains("access_trace"));
  const auto rows = at_line(j, kCoalescedLine);
  REQUIRE(rows.size() == 2);  // the first two of the launch's 8 warps
  for (unsigned k = 0; k < 2; ++k) {
    const nlohmann::json& e = rows[k];
    CHECK(ends_with(e["file"].get<std::string>(), "test_access_trace.cu"));
    CHECK(e["space"] == "global");
    CHECK(e["op"] == "ld");
    CHECK(e["size"] == 4);
    CHECK(e["block"].dump() == "[0,0,0]");  // the lowest block, whichever worker ran it
    CHECK(e["warp"] == k);
    CHECK_FALSE(e.contains("shared_offset"));
    REQUIRE(e["addresses"].size() == 32);
    for (unsigned lane = 0; lane < 32; ++lane)
      CHECK(e["addresses"][lane].get<std::uint64_t>() ==
            reinterpret_cast<std::uintptr_t>(a.ptr + k * 32 + lane));
    CHECK(sectors(e).size() == 4);
  }
  // The store is traced too, at its own line.
  const auto stores = at_line(j, kCoalescedLine + 1);
  REQUIRE(stores.size() == 2);
  CHECK(stores[0]["op"] == "st");
}

TEST_CASE("access trace: a load of stride 32 floats touches 32 sectors, whatever the worker count") {
  Trace on(3);
  DeviceArray<float> a(64 * 32), out(64);
  set_worker_count(1);
  strided_load<<<2, 32>>>(a.ptr, out.ptr, 1);
  REQUIRE(last_launch().error == 0);
  const nlohmann::json one = launch_json(last_launch());
  set_worker_count(2);
  strided_load<<<2, 32>>>(a.ptr, out.ptr, 2);  // another argument: not a skipped repeat
  REQUIRE(last_launch().error == 0);
  CHECK(last_launch().repeat_of == 0);
  const nlohmann::json two = launch_json(last_launch());
  set_worker_count(0);

  const auto rows = at_line(one, kStridedLine);
  REQUIRE(rows.size() == 2);  // 2 warps in all, fewer than 3
  CHECK(rows[0]["block"].dump() == "[0,0,0]");
  CHECK(rows[1]["block"].dump() == "[1,0,0]");
  for (const nlohmann::json& e : rows) CHECK(sectors(e).size() == 32);
  const std::uint64_t base = reinterpret_cast<std::uintptr_t>(a.ptr);
  CHECK(rows[0]["addresses"][1].get<std::uint64_t>() == base + 32 * sizeof(float));
  CHECK(rows[1]["addresses"][0].get<std::uint64_t>() == base + 32 * 32 * sizeof(float));
  CHECK(one["access_trace"] == two["access_trace"]);
}

TEST_CASE("access trace: a shared tile read by columns, every lane in one bank") {
  Trace on(2);
  DeviceArray<float> a(1024), out(2048);
  column_read<<<2, dim3(32, 32)>>>(a.ptr, out.ptr);
  const LaunchRecord& r = last_launch();
  REQUIRE(r.error == 0);
  const nlohmann::json j = launch_json(r);
  const auto rows = at_line(j, kColumnLine);
  REQUIRE(rows.size() == 2);
  for (unsigned w = 0; w < 2; ++w) {
    const nlohmann::json& e = rows[w];
    CHECK(e["space"] == "shared");
    CHECK(e["op"] == "ld");
    CHECK(e["block"].dump() == "[0,0,0]");
    CHECK(e["warp"] == w);
    REQUIRE(e.contains("shared_offset"));
    REQUIRE(e["shared_offset"].size() == 32);
    std::set<std::uint64_t> banks;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const std::uint64_t off = e["shared_offset"][lane].get<std::uint64_t>();
      CHECK(off == lane * 128 + w * 4);  // tile[lane][w]
      banks.insert(off / 4 % 32);
      // The shared-window address moves with the offset.
      CHECK(e["addresses"][lane].get<std::uint64_t>() - e["addresses"][0].get<std::uint64_t>() == lane * 128);
    }
    CHECK(banks == std::set<std::uint64_t>{w});
  }
  // The row-wise store before it (its line also loads a[i]): 32 banks, one word each.
  std::vector<nlohmann::json> stores, loads;
  for (const auto& e : at_line(j, kRowStoreLine)) (e["space"] == "shared" ? stores : loads).push_back(e);
  REQUIRE(stores.size() == 2);
  CHECK(loads.size() == 2);
  CHECK(stores[0]["op"] == "st");
  std::set<std::uint64_t> banks;
  for (const auto& off : stores[0]["shared_offset"]) banks.insert(off.get<std::uint64_t>() / 4 % 32);
  CHECK(banks.size() == 32);
}

TEST_CASE("access trace: inactive lanes are null") {
  Trace on(1);
  DeviceArray<float> a(64), out(64);
  even_lanes<<<1, 64>>>(a.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  const auto rows = at_line(launch_json(last_launch()), kEvenLine);
  REQUIRE(rows.size() == 1);
  for (unsigned lane = 0; lane < 32; ++lane) CHECK(rows[0]["addresses"][lane].is_null() == (lane % 2 == 1));
}

TEST_CASE("access trace: off (the default), no trace and no field in the JSON") {
  CHECK(Options{}.trace_warps == 0);
  Trace off(0);
  DeviceArray<float> a(64), out(64);
  untraced<<<2, 32>>>(a.ptr, out.ptr);
  REQUIRE(last_launch().error == 0);
  CHECK_FALSE(last_launch().access_trace.has_value());
  CHECK_FALSE(launch_json(last_launch()).contains("access_trace"));
}
