// Training budgets against Megatron's published estimate and self-consistency.
#include "cost/catalog/catalog.hpp"
#include "cost/train/budget_train.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace simt;
using namespace simt::cost;

namespace {
TrainBudgetInput gpt3_on_1024_a100() {
  TrainBudgetInput in;
  in.model = &models::find_model("gpt3-175b");
  in.tokens = 300e9;
  in.gpus = 1024;
  in.device = &Catalog::builtin().device("A100-80GB-SXM");
  in.util_kind = UtilizationKind::Achieved;
  in.util = 140e12;
  in.recompute = models::Recompute::Full;
  in.layout = {.tp = 8, .pp = 16, .dp = 1, .zero_stage = 0};
  return in;
}
}  // namespace

TEST_CASE("Megatron: GPT-3 175B on 1024 A100s at 140 TFLOP/s takes about 34 days") {
  // Narayanan et al. 2021 (arXiv:2104.04473), Sec. 5.1: T = 300B tokens, n = 1024,
  // X = 140 teraFLOP/s per GPU, time ~ 8TP/(nX) = 34 days.
  const auto b = train_budget(gpt3_on_1024_a100());
  CHECK(std::round(b.simple_days) == 34);
  // The exact Eq. 3 count adds attention (s/6h = 2.8%) and the LM head.
  CHECK(b.days == doctest::Approx(34.7).epsilon(0.01));
  CHECK(b.in.layout.dp == 8);
}

TEST_CASE("MFU counts model FLOPs; HFU counts recomputation too") {
  auto in = gpt3_on_1024_a100();
  in.util_kind = UtilizationKind::Mfu;
  in.util = 0.5;
  const auto mfu = train_budget(in);
  in.util_kind = UtilizationKind::Hfu;
  const auto hfu = train_budget(in);
  CHECK(hfu.days / mfu.days == doctest::Approx(hfu.flops.hardware_flops / hfu.flops.model_flops));
  CHECK(mfu.gpu_hours == doctest::Approx(mfu.days * 24 * 1024));
  // Energy = G x TDP x time.
  CHECK(mfu.energy_kwh == doctest::Approx(1024 * mfu.in.device->tdp_watts * mfu.time_s / 3.6e6));
}

TEST_CASE("a given price gives a cost") {
  auto in = gpt3_on_1024_a100();
  in.price_per_gpu_hour = 2.0;
  const auto b = train_budget(in);
  CHECK(b.cost_usd == doctest::Approx(2.0 * b.gpu_hours));
}

TEST_CASE("memory per GPU adds model states and activations") {
  auto in = gpt3_on_1024_a100();
  in.sequence_parallel = true;
  const auto b = train_budget(in);
  // 174.6B / (8 x 16) = 1.364B params per GPU, 16 B each.
  CHECK(b.states.total() == doctest::Approx(16 * 174.6e9 / 128).epsilon(0.001));
  CHECK(b.bytes_per_gpu == doctest::Approx(b.states.total() + b.activations->total));
  CHECK(b.fits);
}

TEST_CASE("bad budgets are refused with a message") {
  auto in = gpt3_on_1024_a100();
  in.gpus = 1000;  // not a multiple of tp x pp = 128
  CHECK_THROWS_WITH_AS(train_budget(in), doctest::Contains("multiple of tp x pp"), std::invalid_argument);
  in = gpt3_on_1024_a100();
  in.tokens = -1;
  CHECK_THROWS_AS(train_budget(in), std::invalid_argument);
  in = gpt3_on_1024_a100();
  in.util_kind = UtilizationKind::Mfu;
  in.util = 1.5;
  CHECK_THROWS_AS(train_budget(in), std::invalid_argument);
  in = gpt3_on_1024_a100();
  in.layout.zero_stage = 5;
  CHECK_THROWS_AS(train_budget(in), std::invalid_argument);
}
