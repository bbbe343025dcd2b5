// The kernel time `simt run` prints, on the course kernels: what binds each one,
// and the order of each ladder (the same lesson in better and better versions)
// against the order measured on an H200 (docs/validation/h200-time-model.md).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>
#include <sys/wait.h>

namespace {

nlohmann::json run_json(const std::string& args) {
  std::string cmd = std::string(SIMT_BIN) + " run " + args + " --json --no-races 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  REQUIRE(pclose(p) == 0);
  return nlohmann::json::parse(out);
}

// Predicted time of the first launch of each kernel, at its default size.
std::vector<double> first_launch_times(const std::vector<std::string>& kernels) {
  std::vector<double> t;
  for (const auto& k : kernels) t.push_back(run_json(k)[0]["time"]["predicted_s"].get<double>());
  return t;
}

bool strictly_decreasing(const std::vector<double>& t) {
  for (std::size_t i = 1; i < t.size(); ++i)
    if (!(t[i] < t[i - 1])) return false;
  return true;
}

}  // namespace

TEST_CASE("simt run --json carries the kernel time: predicted, bound, every term, three levels") {
  auto l = run_json("transpose_shared")[0];
  const auto& t = l["time"];
  CHECK(t["bound"] == "shared");
  CHECK(t["sentence"].get<std::string>().find("32 per load") != std::string::npos);
  double largest = 0;
  for (const auto& term : t["terms"]) largest = std::max(largest, term["time_s"].get<double>());
  CHECK(t["predicted_s"].get<double>() == doctest::Approx(t["launch_overhead_s"].get<double>() + largest + t["fill_s"].get<double>()));
  CHECK(t["levels"].size() == 3);
  CHECK(t["occupancy"]["resident_blocks_per_sm"] == 8);  // 256 threads: 2048 / 256
  CHECK(!l["global_sites"].empty());
}

TEST_CASE("the transposes: uncoalesced stores, then bank conflicts, then DRAM") {
  CHECK(run_json("transpose_naive")[0]["time"]["bound"] == "l1_l2");
  CHECK(run_json("transpose_padded")[0]["time"]["bound"] == "dram");
  // Measured on the H200 at 1024 x 1024: 18.0, 7.6, 3.9 us.
  CHECK(strictly_decreasing(first_launch_times({"transpose_naive", "transpose_shared", "transpose_padded"})));
}

TEST_CASE("the reductions in the measured order (12.8, 8.7, 7.4, 5.7 us on the H200)") {
  CHECK(strictly_decreasing(first_launch_times(
      {"reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential", "reduce_warp_shuffle"})));
}

TEST_CASE("the naive matmul is the slowest, bound by its uncoalesced loads (72, 24, 13 us on the H200)") {
  auto t = first_launch_times({"matmul_naive", "matmul_coalesced", "matmul_tiled"});
  CHECK(t[0] > t[1]);
  CHECK(t[0] > t[2]);
  CHECK(run_json("matmul_naive")[0]["time"]["bound"] == "l1");
}

// The coalesced matmul waits a round trip per k step (the load chain: 256 rounds
// per warp at 256^3, each an L2 hit of l2_load_round_clk), the tiled one a barrier
// chain per tile: 25.6 and 13.3 us measured on the H200.
TEST_CASE("the coalesced matmul is slower than the tiled one: its k loop waits on L2 every step") {
  auto t = first_launch_times({"matmul_coalesced", "matmul_tiled"});
  CHECK(t[0] > t[1]);
  CHECK(run_json("matmul_coalesced")[0]["time"]["bound"] == "load_chain");
}

TEST_CASE("a device the model cannot price still runs, and says why") {
  auto l = run_json("vector_add --n 4096 --device B200")[0];
  CHECK(l["time"].is_null());
  CHECK(l["time_unavailable"].get<std::string>().find("SM count") != std::string::npos);
}

TEST_CASE("the instruction estimate of loops nvcc unrolls completely: FlashAttention backward's register rows") {
  // attention_bwd_dkdv<64> and attention_bwd_dq<64> keep a 64-wide row per thread in
  // registers and walk it in loops of constant trip count, which nvcc unrolls into
  // straight-line FFMAs and LDS.128s. ncu on the H200
  // (docs/validation/data/course_kernels_ii/ncu_cases.csv): 3,739,328 and 2,287,264
  // warp instructions. Charged as clang's 2-4 deep loops with the rows in local
  // memory, the estimate was 3.5 and 4.2 times that.
  const nlohmann::json launches = run_json("attention_flash_backward");
  REQUIRE(launches.size() == 4);
  const double measured[] = {3739328.0, 2287264.0};
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json& l = launches[2 + i];
    const double ratio = l["metrics"]["smsp__inst_executed.sum"].get<double>() / measured[i];
    INFO(l["kernel"] << ": estimate / H200 " << ratio);
    CHECK(ratio > 0.8);
    CHECK(ratio < 1.25);
  }
}
