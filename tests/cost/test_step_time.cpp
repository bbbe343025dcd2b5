// Step time as the sum of per-operator rooflines, with TP all-reduces and PP
// sends; precisions per tensor; impossible layouts refused.
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/layout_check.hpp"
#include "cost/train/step_time.hpp"
#include "cost/train/train_step.hpp"
#include "models/params.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

using namespace simt;
using namespace simt::cost;

namespace {
StepInput decode(const char* model, const char* device, int64_t batch, int64_t context) {
  StepInput in;
  in.model = &models::find_model(model);
  in.device = &Catalog::builtin().device(device);
  in.phase = models::Phase::Decode;
  in.batch = batch;
  in.seq = context;
  return in;
}
const StepOp& op_named(const StepTime& s, const std::string& name) {
  for (const auto& op : s.ops)
    if (op.name == name) return op;
  FAIL("no op " << name);
  return s.ops.front();
}
}  // namespace

TEST_CASE("Llama-3 8B on an A100, batch 256, context 512: the step is the sum of its operators") {
  // LLM-Viewer (Yuan et al. 2024, arXiv:2402.16363; github.com/hahnyuan/LLM-Viewer),
  // same inputs, decode stage, bf16, FlashAttention on: 21.4 ms (docs/cost-model.md, peers table).
  const StepTime s = step_time(decode("llama3-8b", "A100-80GB-SXM", 256, 512));
  CHECK(s.time_s == doctest::Approx(21.4e-3).epsilon(0.05));
  // The one-roofline answer is lower: it lets memory-bound attention hide behind GEMMs.
  CHECK(s.aggregate_s < 0.85 * s.time_s);
  // 256 tokens against a ridge of 153 FLOP/B: every weight GEMM is compute-bound ...
  for (const char* gemm : {"qkv_proj", "o_proj", "mlp_gate", "mlp_up", "mlp_down"})
    CHECK_MESSAGE(op_named(s, gemm).bound == "compute", gemm);
  // ... and attention over 256 x 512 cached tokens is memory-bound.
  CHECK(op_named(s, "flash_attention").bound == "memory");
  double sum = 0;
  for (const auto& op : s.ops) sum += op.total_s();
  CHECK(s.time_s == doctest::Approx(sum));
}

TEST_CASE("invariant: the operator sum is never below the aggregate bound") {
  for (const char* model : {"llama3-8b", "gpt2-small", "mixtral-8x7b", "deepseek-v3"})
    for (int64_t batch : {1, 16, 512})
      for (auto phase : {models::Phase::Prefill, models::Phase::Decode}) {
        StepInput in = decode(model, "H200", batch, 1024);
        in.phase = phase;
        const StepTime s = step_time(in);
        CHECK_MESSAGE(s.time_s >= s.aggregate_s * (1 - 1e-12), model << " batch " << batch);
        CHECK(s.comm_s == 0);
      }
}

TEST_CASE("tensor parallelism: each layer's two all-reduces are in the step") {
  StepInput in = decode("llama3-70b", "H100-SXM", 1, 1024);
  const StepTime one = step_time(in);
  in.tp = 8;
  const StepTime tp8 = step_time(in);
  const auto& m = *in.model;
  const double S = 1.0 * m.d_model * 2;  // one token of bf16 hidden state per sequence
  const auto& nvlink = Catalog::builtin().link("NVLink4");
  const double each = std::min(collective_time(Collective::all_reduce, S, 8, nvlink, CommAlgo::ring).time_s,
                               collective_time(Collective::all_reduce, S, 8, nvlink, CommAlgo::tree).time_s);
  CHECK(tp8.comm_s == doctest::Approx(2 * m.layers * each));
  CHECK(tp8.link.find("NVLink4") != std::string::npos);
  // At batch 1 the all-reduces are latency: a large share of a step that TP made 8x shorter.
  CHECK(tp8.comm_s / tp8.time_s > 0.2);
  CHECK(tp8.time_s - tp8.comm_s < one.time_s / 7);  // norms are repeated on each GPU: not quite 1/8
  CHECK(tp8.time_s - tp8.comm_s > one.time_s / 8);
}

TEST_CASE("pipeline stages add one send per boundary and do not shorten the step") {
  StepInput in = decode("llama3-8b", "H100-SXM", 8, 1024);
  const StepTime flat = step_time(in);
  in.pp = 4;
  const StepTime piped = step_time(in);
  CHECK(op_named(piped, "pp_send").bytes == 3 * 8 * 4096 * 2.0);  // 3 boundaries x 8 tokens x d_model x bf16
  CHECK(piped.time_s == doctest::Approx(flat.time_s + piped.comm_s));
}

TEST_CASE("precisions: W4A16 reads ~0.53/2 of the weight bytes at batch 1 and computes at the bf16 rate") {
  StepInput in = decode("llama3-8b", "H100-SXM", 1, 128);
  const StepTime bf16 = step_time(in);
  in.precisions.weights = parse_format("int4");
  CHECK(in.precisions.weights.bytes == 0.5 + 4.0 / 128);
  CHECK(in.precisions.matmul_peak_key() == "bf16");
  const StepTime w4 = step_time(in);
  // Weights dominate batch-1 decode: the step shrinks by nearly the byte ratio.
  CHECK(w4.time_s / bf16.time_s == doctest::Approx(0.53125 / 2).epsilon(0.08));
  in.precisions.kv = parse_format("fp8");
  CHECK(step_time(in).bytes < w4.bytes);
  in.precisions = uniform_precisions("int8");
  CHECK(in.precisions.matmul_peak_key() == "int8");
  CHECK_THROWS_AS(uniform_precisions("int4"), std::invalid_argument);
  CHECK_THROWS_AS(parse_format("int3"), std::invalid_argument);
  StepInput a100 = decode("llama3-8b", "A100-80GB-SXM", 1, 128);
  a100.precisions = uniform_precisions("fp8");  // Ampere has no fp8 tensor cores
  CHECK_THROWS_WITH_AS(step_time(a100), doctest::Contains("no published fp8"), std::invalid_argument);
}

TEST_CASE("impossible layouts are refused, naming the constraint") {
  const auto& llama = models::find_model("llama3-8b");
  CHECK_THROWS_WITH_AS(check_layout(&llama, 64, 1, 64), doctest::Contains("layers % pp"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_layout(&llama, 3, 3, 1), doctest::Contains("heads % tp"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_layout(&llama, 12, 4, 2), doctest::Contains("tp x pp x dp"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(check_layout(&llama, 2000000000, 1, 1), doctest::Contains("beyond any cluster"),
                       std::invalid_argument);
  CHECK_THROWS_AS(check_layout(&llama, 8, 0, 1), std::invalid_argument);
  CHECK(check_layout(&llama, 64, 8, 4) == 2);
  // 64 query heads over tp 16 are fine, but 8 KV heads can neither split into 16
  // nor ... they can be replicated twice: accepted. 12 GPUs cannot hold 8 KV heads.
  models::ModelConfig odd = models::find_model("llama3-70b");
  odd.heads = 96;
  CHECK(check_layout(&odd, 16, 16, 1) == 1);
  CHECK_THROWS_WITH_AS(check_layout(&odd, 12, 12, 1), doctest::Contains("KV heads"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(require_positive(0, "--seq"), doctest::Contains("--seq must be a positive"),
                       std::invalid_argument);
  CHECK_THROWS_AS(require_non_negative(-2, "price"), std::invalid_argument);
}

TEST_CASE("training step: per-operator sum, recomputation costs MFU, TP adds 4 all-reduces per layer") {
  TrainStepInput in;
  in.model = &models::find_model("llama3-8b");
  in.device = &Catalog::builtin().device("H100-SXM");
  in.seq = 4096;
  const TrainStep base = train_step_time(in);
  CHECK(base.roofline_mfu > 0.3);
  CHECK(base.roofline_mfu < 1);
  CHECK(base.comm_s == 0);
  // The model FLOPs of the micro-batch at the bf16 peak are a floor under the step.
  CHECK(base.time_s >= base.model_flops / in.device->peak_for("bf16").value);
  in.recompute = models::Recompute::Full;
  const TrainStep full = train_step_time(in);
  CHECK(full.roofline_mfu < base.roofline_mfu);  // same model FLOPs, more work
  CHECK(full.model_flops == doctest::Approx(base.model_flops));
  in.recompute = models::Recompute::None;
  in.tp = 4;
  const TrainStep tp = train_step_time(in);
  REQUIRE(tp.ops.back().name == "tp_all_reduce");
  CHECK(tp.ops.back().count == 4 * 32);
  in.pp = 3;  // 32 layers do not split into 3 stages
  CHECK_THROWS_WITH_AS(train_step_time(in), doctest::Contains("layers % pp"), std::invalid_argument);
}

TEST_CASE("two tiers: a TP group larger than a server all-reduces across the network") {
  // 8 GPUs per server (DGX/HGX); H100 servers: NVLink4 inside, IB-NDR between (DGX H100 guide).
  CHECK(node_crossing_boundaries(2, 4, 8) == 0);  // stages at GPUs 0, 2, 4, 6: one server
  CHECK(node_crossing_boundaries(4, 4, 8) == 1);  // the boundary at GPU 8
  CHECK(node_crossing_boundaries(8, 3, 8) == 2);  // every stage is a server
  const auto& h100 = Catalog::builtin().device("H100-SXM");
  const double S = 1 << 20;
  const GroupComm inside = group_all_reduce(S, 8, h100, {});
  const GroupComm across = group_all_reduce(S, 16, h100, {});
  CHECK(across.how.find("IB-NDR") != std::string::npos);
  CHECK(across.time_s > 2 * inside.time_s);  // the network is 9x slower than NVLink4 per GPU
  // Hierarchical: no faster than the inter-server all-reduce of S/8 alone.
  const auto& ib = Catalog::builtin().link("IB-NDR");
  CHECK(across.time_s > collective_time(Collective::all_reduce, S / 8, 2, ib, CommAlgo::tree).time_s);
  CHECK_THROWS_WITH_AS(group_all_reduce(S, 12, h100, {}), doctest::Contains("unevenly"), std::invalid_argument);
  StepInput in = decode("llama3-70b", "H100-SXM", 1, 1024);
  in.tp = 16;
  const StepTime tp16 = step_time(in);
  in.tp = 8;
  CHECK(tp16.comm_s > step_time(in).comm_s);
}

TEST_CASE("the roofline MFU bounds what Megatron-LM achieved for GPT-3 175B") {
  // Narayanan et al. 2021 (arXiv:2104.04473), Table 1 / sec. 5.1: 175B on 1024 A100s,
  // tp 8, pp 16, full recomputation, 140 TFLOP/s per GPU of hardware FLOPs (recompute
  // included) against a 312 TFLOP/s peak. Their MFU is that times model / hardware FLOPs.
  TrainStepInput in;
  in.model = &models::find_model("gpt3-175b");
  in.device = &Catalog::builtin().device("A100-80GB-SXM");
  in.tp = 8;
  in.pp = 16;
  in.recompute = models::Recompute::Full;
  const TrainStep st = train_step_time(in);
  const auto f = models::train_flops(*in.model, {2048, 2048, false, models::Recompute::Full});
  const double achieved_mfu = 140.0 / 312.0 * f.model_flops / f.hardware_flops;
  CHECK(achieved_mfu == doctest::Approx(0.337).epsilon(0.01));
  CHECK(st.roofline_mfu > achieved_mfu);  // a bound must not be beaten by a real run
  CHECK(st.roofline_mfu < 0.75);          // recomputation alone costs a quarter
}
