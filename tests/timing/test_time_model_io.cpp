// The one conversion from counters to the time model's input: a launch record and the
// same launch as JSON (what `simt exec --json` writes, what `simt roofline --counters`
// reads) must give the time model the same input, FLOPs included.
#include "timing/time_model_io.hpp"

#include "cost/catalog/catalog.hpp"
#include "sim/report/report.hpp"

#include <doctest/doctest.h>

using namespace simt;

namespace {

LaunchRecord half_heavy_launch() {
  LaunchRecord r;
  r.kernel = "mixed";
  r.grid = {64, 1, 1};
  r.block = {256, 1, 1};
  r.static_shared_bytes = 4096;
  Counters& c = r.totals;
  c[Counter::GlobalLdRequests] = 2048, c[Counter::GlobalLdSectors] = 8192;
  c[Counter::GlobalStRequests] = 512, c[Counter::GlobalStSectors] = 2048;
  c[Counter::SharedLdInst] = 300, c[Counter::SharedLdWavefronts] = 310;
  c[Counter::FAdd] = 1000, c[Counter::FFma] = 500;
  c[Counter::DMul] = 7;
  c[Counter::HFma] = 9000, c[Counter::HFma2] = 8000;  // 8000 of the 9000 are packed: 4 FLOPs each
  c[Counter::HAdd] = 100;
  c[Counter::DramReadBytes] = 262144, c[Counter::DramWriteBytes] = 65536;
  c[Counter::InstExecuted] = 40000, c[Counter::ThreadInstExecuted] = 1200000;
  return r;
}

}  // namespace

TEST_CASE("a launch record and its JSON give the time model the same counters") {
  const LaunchRecord r = half_heavy_launch();
  const cost::KernelCounters direct = timing::time_model_counters(r);
  const cost::KernelCounters via_json = timing::time_model_counters(launch_json(r));
  CHECK(direct.flops == doctest::Approx(r.totals.flops()));
  CHECK(via_json.flops == doctest::Approx(direct.flops));  // packed half FLOPs counted twice on both paths
  CHECK(direct.flops == doctest::Approx(1000 + 2 * 500 + 7 + 100 + 2 * 9000 + 2 * 8000));
  CHECK(via_json.blocks == 64);
  CHECK(via_json.threads_per_block == 256);
  CHECK(via_json.shared_bytes_per_block == 4096);
  CHECK(via_json.ld_sectors == direct.ld_sectors);
  CHECK(via_json.st_requests == direct.st_requests);
  CHECK(via_json.shared_ld_wavefronts == direct.shared_ld_wavefronts);
  CHECK(via_json.fp16_inst == direct.fp16_inst);
  CHECK(via_json.dram_read_bytes == direct.dram_read_bytes);
  CHECK(via_json.sass_thread_inst == direct.sass_thread_inst);
}

TEST_CASE("metrics read back by the catalog's names; reductions stay apart and join the atomics in the model") {
  nlohmann::json m = {{"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 3},
                      {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 4},
                      {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", 28},
                      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 10}};
  const Counters c = timing::counters_from_metrics(m);
  CHECK(c[Counter::GlobalAtomRequests] == 3);
  CHECK(c[Counter::GlobalRedRequests] == 4);
  CHECK(c[Counter::GlobalRedSectors] == 28);
  const cost::KernelCounters k = timing::time_model_counters({"k", 1, 32, 0}, c, {});
  CHECK(k.atom_requests == 7);
  CHECK(k.atom_sectors == 28);
  CHECK(c[Counter::DramReadBytes] == 320);    // no DRAM metric: every sector reaches DRAM
  CHECK(c[Counter::DramWriteBytes] == 32 * 28);
  CHECK_THROWS_AS(timing::counters_from_metrics({{"dram__bytes_read.sum", -1}}), std::runtime_error);
}

TEST_CASE("one precision rule: the plain roofline's input from a record") {
  LaunchRecord r = half_heavy_launch();
  CHECK(timing::roofline_input(r).precision == std::string("fp16_cuda_cores"));
  CHECK(cost::dominant_precision(10, 0, 0) == std::string("fp32"));
  CHECK(cost::dominant_precision(1, 5, 1) == std::string("fp64"));
  CHECK(cost::dominant_precision(3, 3, 0) == std::string("fp32"));  // a tie is FP32's
}

TEST_CASE("the clock's account of a launch is the model's, once, and rides in the launch JSON") {
  LaunchRecord r = half_heavy_launch();
  const cost::DeviceSpec& h200 = cost::Catalog::builtin().device("H200");
  const cost::KernelTime t = cost::kernel_time(h200, timing::time_model_counters(r));
  r.clock_seconds = t.predicted_s;
  r.clock_detail = timing::kernel_time_json(t);
  const nlohmann::json j = launch_json(r);
  REQUIRE(j.contains("time"));
  CHECK(j["time"]["predicted_s"].get<double>() == t.predicted_s);
  CHECK(j["time"]["bound"] == t.bound);
  r.clock_detail = {{"unpriced", "no SM count"}};
  const nlohmann::json u = launch_json(r);
  CHECK_FALSE(u.contains("time"));
  CHECK(u["clock"]["unpriced"] == "no SM count");
}
