// `simt validate`'s comparison without a GPU: the ulp distance, dumps of differing
// allocations read back and compared element by element, and the --max-ulp verdict.
#include <doctest/doctest.h>

#include "validate_compare.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <iterator>
#include <span>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace simt::cli;
namespace fs = std::filesystem;

namespace {

float next_up(float x, int n = 1) {
  for (int i = 0; i < n; ++i) x = std::nextafter(x, std::numeric_limits<float>::infinity());
  return x;
}

std::span<const unsigned char> bytes_of(const std::vector<float>& v) {
  return {reinterpret_cast<const unsigned char*>(v.data()), v.size() * sizeof(float)};
}

// FNV-1a 64 as the digest writers compute it, written out here again on purpose.
std::string digest(std::span<const unsigned char> b) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : b) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

void write_dump(const fs::path& dir, unsigned launch, unsigned id, std::span<const unsigned char> b) {
  fs::create_directories(dir);
  std::ofstream f(dir / fmt::format("launch-{}-alloc-{}.bin", launch, id), std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("simt-validate-test-{}-{}", getpid(), counter()++);
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  static int& counter() {
    static int n = 0;
    return n;
  }
};

}  // namespace

TEST_CASE("ulp distance: adjacent floats, signed zeros, across zero, NaN and infinity") {
  CHECK(ulp_distance(1.0f, 1.0f) == 0);
  CHECK(ulp_distance(1.0f, next_up(1.0f)) == 1);
  CHECK(ulp_distance(next_up(1.0f), 1.0f) == 1);
  CHECK(ulp_distance(0.731f, next_up(0.731f, 2)) == 2);
  CHECK(ulp_distance(-2.5f, -next_up(2.5f, 3)) == 3);
  // Across a power of two the ulp doubles, but the distance counts representable values.
  CHECK(ulp_distance(std::nextafter(2.0f, 0.0f), next_up(2.0f)) == 2);
  CHECK(ulp_distance(0.0f, -0.0f) == 0);
  const float tiny = std::numeric_limits<float>::denorm_min();
  CHECK(ulp_distance(0.0f, tiny) == 1);
  CHECK(ulp_distance(-0.0f, tiny) == 1);
  CHECK(ulp_distance(-tiny, tiny) == 2);
  CHECK(ulp_distance(-1.0f, 1.0f) == 2ull * std::bit_cast<std::uint32_t>(1.0f));
  const float inf = std::numeric_limits<float>::infinity(), big = std::numeric_limits<float>::max();
  CHECK(ulp_distance(big, inf) == 1);
  CHECK(ulp_distance(-inf, inf) == 2ull * 0x7f800000u);
  // NaNs: any two are equal, whatever their payload or sign; against a number, infinitely far.
  const float qnan = std::bit_cast<float>(0x7fc00000u), other_nan = std::bit_cast<float>(0xffc00123u);
  CHECK(ulp_distance(qnan, other_nan) == 0);
  CHECK(ulp_distance(qnan, 1.0f) == kInfiniteUlp);
  CHECK(ulp_distance(inf, qnan) == kInfiniteUlp);
  CHECK(ulp_distance(0.0f, std::bit_cast<float>(0x7f800001u)) == kInfiniteUlp);  // a signalling NaN
  CHECK(format_ulp(3) == "3 ulp");
  CHECK(format_ulp(kInfiniteUlp) == "inf ulp");
}

TEST_CASE("ulp distance: f64, f16, bf16 and bytes") {
  CHECK(ulp_distance(1.0, std::nextafter(1.0, 2.0)) == 1);
  CHECK(ulp_distance(-0.0, 0.0) == 0);
  CHECK(ulp_distance(-std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::denorm_min()) == 2);
  // The widest finite gap, -max to +max, still fits in 64 bits.
  const double dmax = std::numeric_limits<double>::max();
  CHECK(ulp_distance(-dmax, dmax) == 2 * std::bit_cast<std::uint64_t>(dmax));
  CHECK(ulp_distance(std::nan("1"), std::nan("2")) == 0);
  CHECK(ulp_distance(std::nan(""), 0.0) == kInfiniteUlp);
  CHECK(ulp_distance(ElementKind::F16, 0x3c00, 0x3c01) == 1);   // 1.0 and the next half
  CHECK(ulp_distance(ElementKind::F16, 0x8000, 0x0000) == 0);   // -0, +0
  CHECK(ulp_distance(ElementKind::F16, 0x8001, 0x0001) == 2);
  CHECK(ulp_distance(ElementKind::F16, 0x7e00, 0xfe01) == 0);   // two NaNs
  CHECK(ulp_distance(ElementKind::F16, 0x7c00, 0x7e00) == kInfiniteUlp);  // inf vs NaN
  CHECK(ulp_distance(ElementKind::BF16, 0x3f80, 0x3f82) == 2);
  CHECK(ulp_distance(ElementKind::BF16, 0x7fc0, 0x7fc1) == 0);
  CHECK(ulp_distance(ElementKind::Bytes, 1, 2) == kInfiniteUlp);
  CHECK(ulp_distance(ElementKind::Bytes, 7, 7) == 0);
  CHECK(parse_element_kind("f16") == ElementKind::F16);
  CHECK(!parse_element_kind("f8"));
}

TEST_CASE("compare_elements: the count, the worst and the first difference, as the verdict says them") {
  std::vector<float> sim(4096), gpu;
  for (std::size_t i = 0; i < sim.size(); ++i) sim[i] = 0.5f + static_cast<float>(i) / 16384;
  sim[517] = 0.731f;
  gpu = sim;
  gpu[3] = next_up(sim[3]);
  gpu[517] = next_up(0.731f, 2);
  gpu[900] = -0.0f;
  sim[900] = 0.0f;  // bits differ, 0 ulp apart
  ElementComparison c = compare_elements(bytes_of(sim), bytes_of(gpu), ElementKind::F32);
  CHECK(c.elements == 4096);
  CHECK(c.differing == 3);
  CHECK(c.max_ulp == 2);
  CHECK(c.worst == 517);
  CHECK(c.first == 3);
  CHECK(describe(c, ElementKind::F32) ==
        fmt::format("3 of 4096 floats differ, max 2 ulp at [517] (0.731 vs {}), first at [3] ({} vs {})",
                    next_up(0.731f, 2), sim[3], gpu[3]));
  CHECK(fmt::format("{}", next_up(0.731f, 2)) == "0.7310001");  // shortest round-trip text shows the difference

  // A NaN against a number is infinitely far and becomes the worst.
  gpu[7] = std::numeric_limits<float>::quiet_NaN();
  c = compare_elements(bytes_of(sim), bytes_of(gpu), ElementKind::F32);
  CHECK(c.max_ulp == kInfiniteUlp);
  CHECK(c.worst == 7);
  CHECK(describe(c, ElementKind::F32).find("max inf ulp at [7] (") != std::string::npos);

  // Identical bytes read as anything: nothing differs.
  c = compare_elements(bytes_of(sim), bytes_of(sim), ElementKind::F64);
  CHECK(c.differing == 0);
  CHECK(describe(c, ElementKind::F64) == "all 2048 doubles equal");

  // A tail shorter than one element is compared as bytes, and any difference there is unbounded.
  std::vector<unsigned char> a(10, 0), b(10, 0);
  b[9] = 1;
  c = compare_elements(a, b, ElementKind::F64);
  CHECK(c.elements == 1);
  CHECK(c.differing == 0);
  CHECK(c.tail_differs);
  CHECK(c.max_ulp == kInfiniteUlp);
}

TEST_CASE("compare_dumps: the verdict of a launch whose digests differ, and --max-ulp") {
  TempDir tmp;
  const fs::path sim_dir = tmp.path / "sim", gpu_dir = tmp.path / "gpu";
  std::vector<float> input(64, 1.5f), out_sim(4096), out_gpu;
  for (std::size_t i = 0; i < out_sim.size(); ++i) out_sim[i] = std::sqrt(static_cast<float>(i));
  out_sim[517] = 0.731f;
  out_gpu = out_sim;
  out_gpu[517] = next_up(0.731f, 2);
  out_gpu[1000] = next_up(out_sim[1000]);

  // Launch 1 writes the output; launch 2 changes nothing, so neither side dumps again.
  auto digests = [&](const std::vector<float>& out) {
    std::string d;
    for (int launch : {1, 2})
      d += fmt::format("launch {} error 0 kernel probe\nalloc 1 {} {}\nalloc 3 {} {}\n", launch, input.size() * 4,
                       digest(bytes_of(input)), out.size() * 4, digest(bytes_of(out)));
    return parse_digests(d, "test");
  };
  const auto sim = digests(out_sim), gpu = digests(out_gpu);
  for (const auto& [dir, out] : {std::pair{sim_dir, &out_sim}, std::pair{gpu_dir, &out_gpu}}) {
    write_dump(dir, 1, 1, bytes_of(input));
    write_dump(dir, 1, 3, bytes_of(*out));
  }

  auto verdicts = compare_memory(sim, gpu);
  REQUIRE(verdicts.size() == 2);
  CHECK(verdicts[0].memory_detail == "allocation #3 (16384 B) differs");
  CHECK(verdicts[0].differing_allocations == std::vector<std::uint64_t>{3});

  SUBCASE("no bound given: every differing bit fails, the ulps are still reported") {
    compare_dumps(verdicts, sim, gpu, {sim_dir, gpu_dir, ElementKind::F32, std::nullopt});
    for (const LaunchVerdict& v : verdicts) {
      CHECK(v.memory_detail == "alloc #3: 2 of 4096 floats differ, max 2 ulp at [517] (0.731 vs 0.7310001)");
      CHECK(v.max_ulp == 2);
      CHECK(v.memory() == MemoryVerdict::Different);
      CHECK(!v.accepted());
    }
  }
  SUBCASE("--max-ulp 2 accepts both launches (launch 2 reads launch 1's dumps)") {
    compare_dumps(verdicts, sim, gpu, {sim_dir, gpu_dir, ElementKind::F32, 2});
    for (const LaunchVerdict& v : verdicts) {
      CHECK(v.memory() == MemoryVerdict::WithinUlp);
      CHECK(v.accepted());
      CHECK(!v.same());
    }
  }
  SUBCASE("--max-ulp 1 does not") {
    compare_dumps(verdicts, sim, gpu, {sim_dir, gpu_dir, ElementKind::F32, 1});
    CHECK(verdicts[0].memory() == MemoryVerdict::Different);
    CHECK(!verdicts[0].accepted());
  }
  SUBCASE("within the bound, but a counter differs: not accepted") {
    compare_dumps(verdicts, sim, gpu, {sim_dir, gpu_dir, ElementKind::F32, 4});
    verdicts[0].counters_compared = 7;
    verdicts[0].counters_equal = 6;
    CHECK(verdicts[0].memory() == MemoryVerdict::WithinUlp);
    CHECK(!verdicts[0].accepted());
    CHECK(verdicts[1].accepted());
  }
  SUBCASE("no GPU dumps: unmeasured, so different whatever the bound") {
    compare_dumps(verdicts, sim, gpu, {sim_dir, fs::path{}, ElementKind::F32, 1000});
    CHECK(verdicts[0].memory() == MemoryVerdict::Different);
    CHECK(!verdicts[0].max_ulp);
    CHECK(verdicts[0].memory_detail == "alloc #3 (16384 B) differs; no dumps from the GPU");
  }
  SUBCASE("a dump that is not what its side digested is refused") {
    write_dump(gpu_dir, 1, 3, bytes_of(out_sim));
    compare_dumps(verdicts, sim, gpu, {sim_dir, gpu_dir, ElementKind::F32, 1000});
    CHECK(verdicts[1].memory() == MemoryVerdict::Different);
    CHECK(verdicts[1].memory_detail.find("does not match its digest after launch 2") != std::string::npos);
  }
  SUBCASE("identical launches stay identical and are accepted") {
    auto same = compare_memory(sim, sim);
    compare_dumps(same, sim, sim, {sim_dir, sim_dir, ElementKind::F32, 0});
    CHECK(same[0].memory() == MemoryVerdict::Same);
    CHECK(same[0].accepted());
    CHECK(same[0].memory_detail == "2 allocations bit-identical");
  }
}

TEST_CASE("compare_dumps: --max-ulp 0 accepts only differences no ulp apart (signed zeros, NaN payloads)") {
  TempDir tmp;
  std::vector<float> s = {0.0f, std::bit_cast<float>(0x7fc00000u), 2.0f}, g = {-0.0f, std::bit_cast<float>(0x7fc00001u), 2.0f};
  const auto sim = parse_digests(fmt::format("launch 1 error 0 kernel k\nalloc 1 12 {}\n", digest(bytes_of(s))), "s");
  const auto gpu = parse_digests(fmt::format("launch 1 error 0 kernel k\nalloc 1 12 {}\n", digest(bytes_of(g))), "g");
  write_dump(tmp.path / "s", 1, 1, bytes_of(s));
  write_dump(tmp.path / "g", 1, 1, bytes_of(g));
  auto v = compare_memory(sim, gpu);
  compare_dumps(v, sim, gpu, {tmp.path / "s", tmp.path / "g", ElementKind::F32, 0});
  CHECK(v[0].max_ulp == 0);
  CHECK(v[0].memory() == MemoryVerdict::WithinUlp);
  CHECK(v[0].memory_detail == "alloc #1: 2 of 3 floats differ, max 0 ulp at [0] (0 vs -0)");
  g[2] = next_up(2.0f);
  const auto gpu2 = parse_digests(fmt::format("launch 1 error 0 kernel k\nalloc 1 12 {}\n", digest(bytes_of(g))), "g");
  write_dump(tmp.path / "g", 1, 1, bytes_of(g));
  v = compare_memory(sim, gpu2);
  compare_dumps(v, sim, gpu2, {tmp.path / "s", tmp.path / "g", ElementKind::F32, 0});
  CHECK(v[0].max_ulp == 1);
  CHECK(!v[0].accepted());
}

// The whole of `simt validate --gpu-results` without a GPU: the simulator's own digests
// and dumps of tests/cuda/ulp_probe.cu, planted as the GPU's with allocation #2 (the
// lgammaf launch's output) moved by 1 and 3 ulp, must read as within 3 ulp and no less.
TEST_CASE("simt validate --gpu-results --max-ulp on a planted GPU directory") {
  TempDir tmp;
  const fs::path sim = tmp.path / "sim", gpu = tmp.path / "gpu";
  const std::string probe = std::string(SIMT_SOURCE_DIR) + "/tests/cuda/ulp_probe.cu";
  const std::string env = "SIMT_CACHE_DIR=" + (tmp.path / "cache").string() + " ";
  auto run = [](const std::string& cmd) {
    const int st = std::system(cmd.c_str());
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  };
  REQUIRE(run(env + "SIMT_OPTIONS=validate_digests=" + (tmp.path / "sim.digests").string() +
              ":validate_dump_dir=" + sim.string() + " " SIMT_BIN " exec " + probe + " > /dev/null 2>&1") == 0);
  // Only changed allocations are dumped: all six after launch 1 (zeroed, #1 written), then one a launch.
  CHECK(fs::exists(sim / "launch-1-alloc-6.bin"));
  CHECK(fs::exists(sim / "launch-2-alloc-2.bin"));
  CHECK(!fs::exists(sim / "launch-2-alloc-1.bin"));

  std::ifstream in(sim / "launch-2-alloc-2.bin", std::ios::binary);
  std::vector<unsigned char> lgamma((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(lgamma.size() == 4 << 14);
  for (auto [i, ulps] : {std::pair{10, 1}, std::pair{517, 3}}) {
    std::uint32_t bits;
    std::memcpy(&bits, lgamma.data() + 4 * i, 4);
    bits += ulps;
    std::memcpy(lgamma.data() + 4 * i, &bits, 4);
  }
  fs::create_directories(gpu / "dumps");
  for (const auto& e : fs::directory_iterator(sim)) fs::copy_file(e.path(), gpu / "dumps" / e.path().filename());
  write_dump(gpu / "dumps", 2, 2, lgamma);
  std::ifstream digests(tmp.path / "sim.digests");
  std::ofstream planted(gpu / "gpu.digests");
  std::string line;
  int launch = 0;
  while (std::getline(digests, line)) {
    if (line.rfind("launch ", 0) == 0) launch = std::stoi(line.substr(7));
    if (launch >= 2 && line.rfind("alloc 2 ", 0) == 0) line = "alloc 2 65536 " + digest(lgamma);
    planted << line << "\n";
  }
  planted.close();

  const std::string validate = env + SIMT_BIN " validate " + probe + " --gpu-results " + gpu.string();
  CHECK(run(validate + " --max-ulp 3 > " + (tmp.path / "out.txt").string() + " 2>&1") == 0);
  std::ifstream out_file(tmp.path / "out.txt");
  const std::string out((std::istreambuf_iterator<char>(out_file)), std::istreambuf_iterator<char>());
  CHECK(out.find("within 3 ulp: alloc #2: 2 of 16384 floats differ, max 3 ulp at [517]") != std::string::npos);
  CHECK(out.find("1/6 launches identical, 5 within 3 ulp") != std::string::npos);
  CHECK(out.find("max 3 ulp over the run") != std::string::npos);
  CHECK(run(validate + " --max-ulp 2 > /dev/null 2>&1") == 1);
  CHECK(run(validate + " > /dev/null 2>&1") == 1);
}
