// Roofline against hand computation from datasheet numbers.
#include "cost/kernel/roofline.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace simt::cost;

TEST_CASE("H100 SXM bf16 ridge = peak / bandwidth (datasheet: 1979/2 TFLOPS, 3.35 TB/s)") {
  const DeviceSpec& h = Catalog::builtin().device("H100-SXM");
  // Hand computation: 989.4e12 / 3.35e12 = 295.34 FLOP/B.
  RooflineResult r = roofline(h, {.flops = 1e12, .dram_bytes = 1e9, .precision = "bf16"});
  CHECK(r.ridge == doctest::Approx(295.34).epsilon(1e-3));
  CHECK(r.intensity == doctest::Approx(1000));
  CHECK(r.bound == "compute");                                  // 1000 > 295
  CHECK(r.time_s == doctest::Approx(1e12 / 989.4e12));          // 1.0107 ms
  CHECK(r.memory_s == doctest::Approx(1e9 / 3.35e12));          // 0.2985 ms
  CHECK(r.attainable_flops == doctest::Approx(989.4e12));
}

TEST_CASE("half precision on CUDA cores: the non-tensor peak, FP32's where none is published") {
  RooflineInput in{.flops = 1e12, .dram_bytes = 1e6, .precision = "fp16_cuda_cores"};
  RooflineResult a = roofline(Catalog::builtin().device("A100-80GB-SXM"), in);
  CHECK(a.peak_flops == doctest::Approx(78e12));
  RooflineResult b = roofline(Catalog::builtin().device("B200"), in);
  CHECK(b.peak_flops == doctest::Approx(Catalog::builtin().device("B200").peak.at("fp32").value));
  CHECK(b.peak_source.find("no non-tensor fp16 peak") != std::string::npos);
}

TEST_CASE("memory-bound: vector add on A100 80GB fp32") {
  // c = a + b over n floats: n FLOPs, 12n bytes; intensity 1/12 FLOP/B, far below
  // the ridge 19.5e12 / 2.039e12 = 9.56 FLOP/B.
  const double n = 1 << 28;
  RooflineResult r = roofline(Catalog::builtin().device("A100-80GB-SXM"), {.flops = n, .dram_bytes = 12 * n});
  CHECK(r.bound == "memory");
  CHECK(r.ridge == doctest::Approx(19.5 / 2.039).epsilon(1e-4));
  CHECK(r.time_s == doctest::Approx(12 * n / 2.039e12));
  CHECK(r.attainable_flops == doctest::Approx(2.039e12 / 12));  // bw x intensity
  CHECK(r.explanation.find("binding   = memory") != std::string::npos);
  CHECK(r.explanation.find("NVIDIA A100 Tensor Core GPU datasheet") != std::string::npos);  // title, not a key
  CHECK(r.explanation.find("https://") != std::string::npos);
}

TEST_CASE("L2 level binds when its traffic is large and its bandwidth given") {
  RooflineInput in{.flops = 1e9, .dram_bytes = 1e6, .precision = "fp32", .l2_bytes = 1e10, .l2_bandwidth = 5e12};
  RooflineResult r = roofline(Catalog::builtin().device("H100-SXM"), in);
  REQUIRE(r.levels.size() == 2);
  CHECK(r.bound == "l2");
  CHECK(r.time_s == doctest::Approx(1e10 / 5e12));
  // Without a bandwidth there is no published figure to fall back on.
  in.l2_bandwidth = 0;
  CHECK_THROWS_WITH_AS(roofline(Catalog::builtin().device("H100-SXM"), in),
                       doctest::Contains("needs an L2 bandwidth"), std::invalid_argument);
}

TEST_CASE("roofline rejects nonsense") {
  const DeviceSpec& d = Catalog::builtin().device("T4");
  CHECK_THROWS_AS(roofline(d, {.flops = -1, .dram_bytes = 1}), std::invalid_argument);
  CHECK_THROWS_AS(roofline(d, {.flops = 0, .dram_bytes = 0}), std::invalid_argument);
  CHECK_THROWS_WITH(roofline(d, {.flops = 1, .dram_bytes = 1, .precision = "bf16"}),
                    doctest::Contains("no published bf16 peak"));
}

TEST_CASE("FLOPs and bytes from ncu metric names") {
  Metrics m = {
      {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 10},
      {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 20},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 30},
      {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 1},
      {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", 4},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 100},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 50},
  };
  RooflineInput in = roofline_input_from_metrics(m);
  CHECK(in.flops == 10 + 20 + 2 * 30 + 2 * 1 + 4);
  CHECK(in.dram_bytes == 32 * 150);  // no dram__bytes.sum: sectors x 32
  CHECK(in.precision == "fp32");
  m["dram__bytes.sum"] = 4096;       // the simulator's estimate wins when present
  CHECK(roofline_input_from_metrics(m).dram_bytes == 4096);
  Metrics dbl = {{"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", 100},
                 {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 5}};
  CHECK(roofline_input_from_metrics(dbl).precision == "fp64");
  Metrics half = {{"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 100},
                  {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 5}};
  CHECK(roofline_input_from_metrics(half).precision == "fp16_cuda_cores");
  // simtlab's packed-half metrics: an HFMA2 lane gives 4 FLOPs, as Counters::flops() says.
  Metrics packed = {{"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", 10},
                    {"simt__thread_inst_hfma2.sum", 6}, {"simt__thread_inst_hadd2.sum", 0}};
  CHECK(roofline_input_from_metrics(packed).flops == 2 * 10 + 2 * 6);
  CHECK_THROWS_AS(roofline_input_from_metrics({{"dram__bytes.sum", -5}}), std::invalid_argument);
}

#include "cost/catalog/units.hpp"

TEST_CASE("quantities: parsing sizes and times, printing bytes") {
  CHECK(parse_quantity("1e9", "x") == 1e9);
  CHECK(parse_quantity("64MiB", "x") == 64.0 * 1024 * 1024);
  CHECK(parse_quantity("1.5GB", "x") == 1.5e9);
  CHECK(parse_quantity("2k", "x") == 2000);
  CHECK_THROWS_WITH(parse_quantity("12 apples", "--bytes"), doctest::Contains("--bytes: unknown unit"));
  CHECK_THROWS_WITH(parse_quantity("-3", "--bytes"), doctest::Contains(">= 0"));
  CHECK_THROWS_WITH(parse_quantity("inf", "--bytes"), doctest::Contains("finite"));
  CHECK(parse_seconds("120ms", "t") == doctest::Approx(0.12));
  CHECK(parse_seconds("3", "t") == 3);
  CHECK_THROWS_WITH(parse_seconds("3 fortnights", "--backward"), doctest::Contains("unknown time unit"));
  CHECK(format_bytes(256.0 * 1024 * 1024) == "256 MiB");
  CHECK(format_bytes(1.5e9) == "1.5 GB");
  CHECK(format_seconds(1.5e-3) == "1.5 ms");
}

TEST_CASE("a calibrated device adds an estimate above the bound") {
  const auto& h200 = simt::cost::Catalog::builtin().device("H200");
  REQUIRE(h200.calibration.dram_efficiency > 0);
  simt::cost::RooflineInput big;
  big.dram_bytes = 134.2e6;  // transpose_padded 4096x4096, measured 33.95 us (docs/validation/h200-roofline.md)
  auto r = simt::cost::roofline(h200, big);
  CHECK(r.calibrated_s == doctest::Approx(r.memory_s / 0.82));
  CHECK(r.calibrated_s * 1e6 == doctest::Approx(33.95).epsilon(0.02));
  simt::cost::RooflineInput tiny;
  tiny.dram_bytes = 64;  // a one-block launch: the launch floor dominates
  CHECK(simt::cost::roofline(h200, tiny).calibrated_s == doctest::Approx(2.4e-6));
  CHECK(simt::cost::roofline(simt::cost::Catalog::builtin().device("A100-80GB-SXM"), big).calibrated_s == 0);
}
