// The cost commands of the `simt` binary: real output for good input, a clear
// message and a non-zero exit for bad input.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Run {
  int status = -1;
  std::string out;  // stdout and stderr together
};

Run simt(const std::string& args, const std::string& env = "") {
  std::string cmd = env + (env.empty() ? "" : " ") + std::string(SIMT_BIN) + " " + args + " 2>&1";
  Run r;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, p)) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/simt_test_" + name;
  std::ofstream(path) << text;
  return path;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("simt devices --json lists every device with a name") {
  Run r = simt("devices --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  CHECK(j.size() >= 12);
  for (auto& d : j) CHECK(d.contains("name"));
  CHECK(j[0].contains("peak_flops"));
  Run links = simt("links --json");
  REQUIRE(links.status == 0);
  auto l = nlohmann::json::parse(links.out);
  CHECK(l.size() >= 10);
  for (auto& link : l) CHECK(link["bandwidth"].get<double>() > 0);
}

TEST_CASE("simt roofline: hand-checkable JSON") {
  Run r = simt("roofline --device H100-SXM --flops 2e12 --bytes 1e9 --dtype bf16 --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["bound"] == "compute");
  CHECK(j["time_s"].get<double>() == doctest::Approx(2e12 / 989.4e12));
  CHECK(j["ridge"].get<double>() == doctest::Approx(989.4 / 3.35));
}

TEST_CASE("simt roofline --counters reads simt run's counter JSON and prices it with the kernel time model") {
  std::string path = temp_file("counters.json", R"([
    {"kernel": "saxpy", "grid": [4096, 1, 1], "block": [256, 1, 1],
     "metrics": {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 1048576,
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 65536,
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 262144,
                 "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum": 32768,
                 "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum": 131072}},
    {"kernel": "conflicted", "grid": [1024, 1, 1], "block": [256, 1, 1],
     "metrics": {"smsp__sass_inst_executed_op_shared_ld.sum": 1048576,
                 "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": 33554432,
                 "dram__bytes.sum": 12582912}}])");
  Run r = simt("roofline -d A100-80GB-SXM --counters " + path + " --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["launches"].size() == 2);
  const auto& saxpy = j["launches"][0];
  // saxpy: 2 FLOP per FFMA; 32 B per sector (no dram__bytes.sum given).
  CHECK(saxpy["flops"].get<double>() == 2.0 * 1048576);
  CHECK(saxpy["bytes"].get<double>() == 32.0 * (262144 + 131072));
  CHECK(saxpy["roofline"]["bound"] == "memory");
  // The time: launch overhead + the largest term (+ one global round trip of fill when
  // that is a throughput term), every term listed, three levels.
  double largest = 0;
  for (const auto& term : saxpy["terms"]) largest = std::max(largest, term["time_s"].get<double>());
  CHECK(saxpy["predicted_s"].get<double>() ==
        doctest::Approx(saxpy["launch_overhead_s"].get<double>() + largest + saxpy["fill_s"].get<double>()));
  CHECK(saxpy["levels"].size() == 3);
  CHECK(saxpy["predicted_s"].get<double>() > saxpy["roofline"]["time_s"].get<double>());
  const auto& conflicted = j["launches"][1];
  CHECK(conflicted["bound"] == "shared");
  CHECK(contains(conflicted["sentence"].get<std::string>(), "32 per load"));
  double total = saxpy["predicted_s"].get<double>() + conflicted["predicted_s"].get<double>();
  CHECK(j["total_time_s"].get<double>() == doctest::Approx(total));
  Run text = simt("roofline -d A100-80GB-SXM --counters " + path);
  CHECK(contains(text.out, "bound by shared-memory wavefronts"));
  Run bad = simt("roofline -d A100-80GB-SXM --counters " + temp_file("bad.json", R"([{"kernel": "k"}])"));
  CHECK(bad.status != 0);
  CHECK(contains(bad.out, "missing object \"metrics\""));
  Run shapeless = simt("roofline -d A100-80GB-SXM --counters " +
                       temp_file("shapeless.json", R"([{"kernel": "k", "metrics": {"dram__bytes.sum": 4}}])"));
  CHECK(shapeless.status != 0);
  CHECK(contains(shapeless.out, "missing array \"grid\""));
}

TEST_CASE("bad input: clear message, exit 2, no crash") {
  struct Case { const char* args; const char* message; };
  const Case cases[] = {
      {"device show H10", "unknown device 'H10'; did you mean 'H100-SXM'"},
      {"roofline --device H10 --flops 1e9 --bytes 1e9", "did you mean 'H100-SXM'"},
      {"roofline --device T4 --flops 1e9 --bytes 0", "--bytes must be > 0"},
      {"roofline --device T4 --flops 1e9 --bytes -4", "--bytes must be a finite number >= 0"},
      {"roofline --device T4 --flops abc --bytes 4", "is not a number"},
      {"roofline --device T4 --flops 1e9 --bytes 1e9 --dtype bf16", "no published bf16 peak"},
      {"comm all-reduce --bytes 0 --gpus 8 --link NVLink4", "--bytes: the value must be a whole number >= 1"},
      {"comm all-reduce --bytes 1G --gpus 0 --link NVLink4", "--gpus: the value must be from 2 to"},
      {"comm all-reduce --bytes 1G --gpus 8 --link NVLink9", "unknown link 'NVLink9'; did you mean"},
      {"comm alreduce --bytes 1G --gpus 8 --link NVLink4", "did you mean 'all-reduce'"},
      {"pipeline --stages 4 --microbatches 0", "microbatches must be >= 1"},
      {"pipeline --stages 4 --microbatches 6 --virtual 2", "multiple of stages"},
      {"zero --params 7.5e9 --gpus 64 --link IB-HDR --stage 5", "--stage: the value must be from 0 to 3"},
      {"ddp --params 1e9 --backward 1parsec --gpus 8 --link NVLink3", "unknown time unit"},
      {"tp --seq 2048 --hidden 0 --tp 8 --link NVLink4", "--hidden: the value must be a whole number >= 1"},
      {"moe --tokens 4096 --hidden 4096 --top-k 2 --ep 1 --link NVLink4", "--ep: the value must be from 2 to"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.args);
    Run r = simt(c.args);
    CHECK(r.status == 2);  // a usage error (cli/exit_codes.hpp)
    CHECK(contains(r.out, c.message));
  }
  // A missing required option is CLI11's parse error: also non-zero.
  CHECK(simt("comm all-reduce --bytes 1G --link NVLink4").status != 0);
}

TEST_CASE("a malformed catalog named by $SIMT_CATALOG is reported with file, entry and field") {
  std::ifstream in(std::string(SIMTLAB_SOURCE_DIR) + "/cost/catalog/devices.json");
  nlohmann::json j = nlohmann::json::parse(in);
  j["devices"][3]["memory_bandwidth_gbs"]["value"] = "fast";
  std::string path = temp_file("devices.json", j.dump());
  Run r = simt("devices", "SIMT_CATALOG=" + path);
  CHECK(r.status == 1);
  CHECK(contains(r.out, path + ": device 'H100-SXM' (devices[3]): field 'memory_bandwidth_gbs'"));
  CHECK(contains(r.out, "expected a number, got string"));
}

TEST_CASE("simt pipeline and comm print what they compute") {
  Run p = simt("pipeline --stages 4 --microbatches 8 --schedule gpipe --json");
  REQUIRE(p.status == 0);
  auto j = nlohmann::json::parse(p.out);
  CHECK(j["bubble_of_total"].get<double>() == doctest::Approx(3.0 / 11));
  CHECK(j["bubble_fraction"].get<double>() == doctest::Approx(3.0 / 11));
  Run ideal = simt("pipeline --stages 4 --microbatches 8 --convention ideal --json");
  CHECK(nlohmann::json::parse(ideal.out)["bubble_fraction"].get<double>() == doctest::Approx(3.0 / 8));
  Run text = simt("pipeline -p 2 -m 2 --schedule gpipe");
  CHECK(contains(text.out, "stage 1 |.. F0 F1 B0 B0 B1 B1"));

  Run c = simt("comm reduce-scatter --bytes 1e12 --gpus 8 --link NVLink3 --json --model alpha-beta");
  REQUIRE(c.status == 0);
  auto cj = nlohmann::json::parse(c.out);
  CHECK(cj["busbw"].get<double>() == doctest::Approx(300e9).epsilon(1e-3));
  CHECK(cj["bus_factor"].get<double>() == doctest::Approx(7.0 / 8));
  Run e = simt("comm all-reduce --bytes 1GiB --gpus 8 --link NVLink4 --explain --model alpha-beta");
  CHECK(contains(e.out, "2(n-1)*alpha + 2(n-1)/n * S/B"));
  CHECK(contains(e.out, "nccl-tests"));
}

TEST_CASE("simt comm prices a collective with NCCL's model by default: 1 GiB over 2 H200s as measured") {
  Run r = simt("comm all-reduce --bytes 1GiB --gpus 2 --link NVLink4 --json");
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["model"] == "nccl");
  CHECK(j["protocol"] == "Simple");
  CHECK(j["calibrated"] == true);
  CHECK(j["time_s"].get<double>() == doctest::Approx(3.30e-3).epsilon(0.25));  // measured 3.30 ms
  Run small = simt("comm all-reduce --bytes 4KiB --gpus 2 --link NVLink4");
  CHECK(contains(small.out, "LL protocol"));
  Run nodes = simt("comm all-reduce --bytes 1GiB --gpus 16 --nodes 2 --link NVLink4 --json");
  REQUIRE(nodes.status == 0);
  CHECK(nlohmann::json::parse(nodes.out)["calibrated"] == false);
  CHECK(simt("comm all-reduce --bytes 1GiB --gpus 6 --nodes 4 --link NVLink4").status != 0);
}
