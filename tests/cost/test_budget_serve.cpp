// Serving budgets: weights, KV cache, largest batch and decode bounds.
#include "cost/catalog/catalog.hpp"
#include "cost/serve/budget_serve.hpp"
#include "models/params.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace simt;
using namespace simt::cost;

namespace {
ServeBudgetInput llama8b_on_h100(int64_t batch, int64_t context) {
  ServeBudgetInput in;
  in.model = &models::find_model("llama3-8b");
  in.device = &Catalog::builtin().device("H100-SXM");
  in.batch = batch;
  in.context = context;
  return in;
}
}  // namespace

TEST_CASE("Llama 3 8B on one H100: weights, KV cache and the largest batch") {
  const auto b = serve_budget(llama8b_on_h100(1, 8192));
  CHECK(b.weights_bytes == 2.0 * 8030261248);
  CHECK(b.kv.bytes_per_token == 131072);
  // (0.9 x 80 GiB - 16.06 GB) / (128 KiB x 8192) = 57.
  CHECK(b.max_batch == 57);
}

TEST_CASE("batch-1 decode is memory-bound at ~ weights / bandwidth") {
  const auto b = serve_budget(llama8b_on_h100(1, 1024));
  CHECK(b.decode.bound == "memory");
  // Reads the weights except the embedding table, plus 1024 x 128 KiB of cache.
  const double bytes = 2.0 * (8030261248 - 128256.0 * 4096) + 1024 * 131072.0;
  CHECK(b.decode.bytes == doctest::Approx(bytes).epsilon(0.01));
  // Sum of operators: the weight GEMMs and attention are all memory-bound at batch 1,
  // so the sum is the bytes over bandwidth plus the few small ops' own bounds.
  CHECK(b.decode.step_s == doctest::Approx(bytes / b.bandwidth).epsilon(0.02));
  CHECK(b.decode.step_s >= b.decode.aggregate_s);
  CHECK(b.decode.tokens_per_s == doctest::Approx(1 / b.decode.step_s));
}

TEST_CASE("tokens/s grows with batch until the cache dominates; tensor parallelism divides the step") {
  const auto b = serve_budget(llama8b_on_h100(8, 4096));
  for (size_t i = 1; i < b.sweep.size(); ++i) CHECK(b.sweep[i].tokens_per_s > b.sweep[i - 1].tokens_per_s);
  auto in = llama8b_on_h100(8, 4096);
  in.gpus = 2;
  const auto two = serve_budget(in);
  // Half the work per GPU, plus two all-reduces per layer and norms repeated on each GPU.
  CHECK(two.decode.step_s > b.decode.step_s / 2);
  CHECK(two.decode.step_s < b.decode.step_s);
  CHECK(two.decode_step.comm_s > 0);
  CHECK(two.decode.step_s - two.decode_step.comm_s < 0.55 * b.decode.step_s);
  CHECK(two.max_batch > 2 * b.max_batch);
}

TEST_CASE("a batch that does not fit is refused, naming the largest that does") {
  CHECK_THROWS_WITH_AS(serve_budget(llama8b_on_h100(64, 8192)), doctest::Contains("largest batch that fits is 57"),
                       std::invalid_argument);
  ServeBudgetInput in = llama8b_on_h100(1, 1024);
  in.model = &models::find_model("llama3-405b");
  CHECK_THROWS_WITH_AS(serve_budget(in), doctest::Contains("weights need"), std::invalid_argument);
  CHECK_THROWS_AS(serve_budget(llama8b_on_h100(0, 1024)), std::invalid_argument);
  CHECK_THROWS_AS(serve_budget(llama8b_on_h100(1, -3)), std::invalid_argument);
}

TEST_CASE("MLA keeps DeepSeek-V3's cache small") {
  ServeBudgetInput in;
  in.model = &models::find_model("deepseek-v3");
  in.device = &Catalog::builtin().device("H200");
  in.gpus = 8;
  in.dtype = parse_dtype("fp8");
  in.context = 4096;
  const auto b = serve_budget(in);
  CHECK(b.kv.bytes_per_token == 61 * 576);
  CHECK(b.kv_replication == 8);  // the latent is not split by heads: every TP rank keeps it
  // At batch 1 the weight reads are tiny per GPU: the step is memory plus all-reduce latency.
  CHECK(b.decode_step.memory_s > b.decode_step.compute_s);
  CHECK(b.decode_step.comm_s > 0);
}

TEST_CASE("serving layouts: gpus = tp x pp x dp, heads split evenly; KV replicated when tp > kv_heads") {
  auto in = llama8b_on_h100(1, 1024);
  in.gpus = 3;
  CHECK_THROWS_WITH_AS(serve_budget(in), doctest::Contains("heads % tp"), std::invalid_argument);
  in.gpus = 8;
  in.tp = 2;
  in.pp = 2;
  const auto b = serve_budget(in);
  CHECK(b.dp == 2);
  CHECK(b.decode.tokens_per_s == doctest::Approx(2 / b.decode.step_s));
  in.tp = 16;
  in.pp = 1;
  in.gpus = 16;
  CHECK(serve_budget(in).kv_replication == 2);  // 8 KV heads over 16 GPUs
  in = llama8b_on_h100(1, 1024);
  in.price_per_gpu_hour = -2;
  CHECK_THROWS_WITH_AS(serve_budget(in), doctest::Contains("price"), std::invalid_argument);
}
