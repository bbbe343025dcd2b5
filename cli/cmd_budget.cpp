// simt budget train | serve: parse flags, call cost/{train,serve}/budget_*, print text or JSON.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "options.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/catalog/units.hpp"
#include "cost/serve/budget_serve.hpp"
#include "cost/train/budget_train.hpp"
#include "cost/train/layout_check.hpp"
#include "cost/train/precision.hpp"
#include "models/zoo.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <climits>
#include <memory>
#include <stdexcept>

namespace simt::cli {

namespace {

struct TrainFlags {
  std::string model, params, tokens, device, dtype = "bf16", recompute = "none";
  long long gpus = 0, zero = 0, tp = 1, pp = 1, bytes_per_param = 16;
  double mfu = 0, hfu = 0, achieved_tflops = 0, price = 0;
  long long seq = 0, micro_batch = 1, global_batch = 0;
  std::string attention = "flash", link, inter_link;
  long long gpus_per_node = 8;
  bool seq_parallel = false, causal = false, json = false, explain = false;
};

cost::TrainBudgetInput train_input(const TrainFlags& f) {
  cost::TrainBudgetInput in;
  if (f.model.empty() == f.params.empty()) throw std::invalid_argument("give exactly one of --model and --params");
  if (!f.model.empty()) in.model = &models::find_model(f.model);
  if (!f.params.empty()) in.params_override = double(parse_count(f.params, "--params", 1, 1000000000000000));
  in.tokens = double(parse_count(f.tokens, "--tokens", 1, 1000000000000000000));
  in.gpus = int(f.gpus);
  in.device = &cost::Catalog::builtin().accelerator(f.device);
  cost::require_non_negative(f.mfu, "--mfu");
  cost::require_non_negative(f.hfu, "--hfu");
  cost::require_non_negative(f.achieved_tflops, "--achieved-tflops");
  cost::require_non_negative(f.price, "--price-per-gpu-hour");
  const int given = (f.mfu > 0) + (f.hfu > 0) + (f.achieved_tflops > 0);
  if (given > 1) throw std::invalid_argument("give at most one of --mfu, --hfu and --achieved-tflops");
  // None given: the MFU of the per-operator roofline step (an upper bound).
  if (given == 0) in.util_kind = cost::UtilizationKind::Roofline;
  if (f.mfu > 0) in.util_kind = cost::UtilizationKind::Mfu, in.util = f.mfu;
  if (f.hfu > 0) in.util_kind = cost::UtilizationKind::Hfu, in.util = f.hfu;
  if (f.achieved_tflops > 0) in.util_kind = cost::UtilizationKind::Achieved, in.util = f.achieved_tflops * 1e12;
  in.layout = {.tp = int(f.tp), .pp = int(f.pp), .dp = 1, .zero_stage = int(f.zero)};
  in.bytes_per_param = int(f.bytes_per_param);
  in.recompute = models::parse_recompute(f.recompute);
  in.sequence_parallel = f.seq_parallel;
  in.seq = f.seq;
  in.micro_batch = f.micro_batch;
  in.global_batch = f.global_batch;
  if (f.attention != "flash" && f.attention != "standard")
    throw std::invalid_argument("--attention must be flash or standard, got '" + f.attention + "'");
  in.flash_attention = f.attention == "flash";
  if (!f.link.empty()) in.topology.intra = &cost::Catalog::builtin().link(f.link);
  if (!f.inter_link.empty()) in.topology.inter = &cost::Catalog::builtin().link(f.inter_link);
  in.topology.gpus_per_node = int(f.gpus_per_node);
  in.causal_halving = f.causal;
  in.dtype = cost::parse_dtype(f.dtype);
  in.price_per_gpu_hour = f.price;
  return in;
}

void add_train(CLI::App& budget) {
  auto f = std::make_shared<TrainFlags>();
  auto* c = budget.add_subcommand("train", "Training FLOPs, time, cost, energy and memory per GPU");
  add_model_option(c, f->model);
  c->add_option("--params", f->params, "parameter count instead of a model (e.g. 7.5e9): 6ND and model states only")
      ->check(whole_count_check(1, 1000000000000000));
  c->add_option("--tokens", f->tokens, "training tokens D (e.g. 300e9, 15T): at least one global batch")
      ->required()
      ->check(whole_count_check(1, 1000000000000000000));
  add_count_option(c, "--gpus", f->gpus, "GPU count G", 1, INT32_MAX)->required();
  add_accelerator_option(c, f->device)->required();
  c->add_option("--mfu", f->mfu, "model FLOPs utilisation in (0,1], at most the roofline step's MFU bound");
  c->add_option("--hfu", f->hfu, "hardware FLOPs utilisation in (0,1] (counts recomputation)");
  c->add_option("--achieved-tflops", f->achieved_tflops, "measured hardware TFLOP/s per GPU (Megatron's X)");
  add_count_option(c, "--zero", f->zero, "ZeRO stage 0-3", 0, 3)->capture_default_str();
  add_count_option(c, "--tp", f->tp, "tensor-parallel degree", 1, INT32_MAX)->capture_default_str();
  add_count_option(c, "--pp", f->pp, "pipeline-parallel degree", 1, INT32_MAX)->capture_default_str();
  add_count_option(c, "--bytes-per-param", f->bytes_per_param, "model-state bytes per parameter: 16 or 18", 16, 18)
      ->capture_default_str();
  c->add_option("--recompute", f->recompute, "activation recomputation: none, selective, full")->capture_default_str();
  c->add_flag("--seq-parallel", f->seq_parallel, "sequence parallelism (with tp > 1)");
  // From 1: 0 would mean "the model's context" inside, so --seq 0 must not parse.
  add_count_option(c, "--seq", f->seq, "sequence length (default: the model's context)", 1, 1000000000);
  add_count_option(c, "--micro-batch", f->micro_batch, "micro-batch size b for activations", 1, 1000000)
      ->capture_default_str();
  c->add_flag("--causal", f->causal, "halve the attention-score FLOPs (causal mask)");
  add_count_option(c, "--global-batch", f->global_batch, "sequences per optimizer step: a multiple of dp x micro-batch",
                    1, 1000000000000);
  c->add_option("--attention", f->attention, "flash (no s^2 activations) or standard")->capture_default_str();
  c->add_option("--link", f->link, "link inside a server (default: the device's NVLink or PCIe)");
  c->add_option("--inter-link", f->inter_link,
                "link between servers (default: IB-NDR for Hopper/Blackwell, else IB-HDR)");
  add_count_option(c, "--gpus-per-node", f->gpus_per_node, "GPUs per server", 1, 1024)->capture_default_str();
  c->add_option("--dtype", f->dtype, "compute dtype for the peak")->capture_default_str();
  c->add_option("--price-per-gpu-hour", f->price, "USD per GPU-hour (default: the catalog's, if any)");
  c->add_flag("--json", f->json, "print JSON");
  c->add_flag("--explain", f->explain, "show formulas' sources and plugged-in values");
  c->callback([f] {
    const auto b = cost::train_budget(train_input(*f));
    if (f->json) fmt::print("{}\n", cost::to_json(b).dump(2));
    else fmt::print("{}", cost::to_text(b, f->explain));
    // It ran, and the check failed (docs/cli.md): the layout does not fit in memory.
    if (!b.fits) throw CLI::RuntimeError(kExitFailed);
  });
}

struct ServeFlags {
  std::string model, device, dtype = "bf16", weights, activations, kv, link, inter_link;
  long long gpus = 1, tp = 0, pp = 1, int4_group = 128, gpus_per_node = 8;
  long long batch = 1, context = 0;
  double memory_fraction = 0.9, price = 0;
  bool json = false, explain = false;
};

// --weights/--activations/--kv each default to --dtype.
cost::Precisions serve_precisions(const ServeFlags& f) {
  const auto pick = [&](const std::string& given) {
    return cost::parse_format(given.empty() ? f.dtype : given, int(f.int4_group));
  };
  cost::Precisions p{pick(f.weights), pick(f.activations), pick(f.kv)};
  if (p.activations.name == "int4")
    throw std::invalid_argument("--activations int4 is not supported: int4 is a weight format (W4A16)");
  return p;
}

cost::ServeBudgetInput serve_input(const ServeFlags& f, bool gpus_given) {
  cost::ServeBudgetInput in;
  in.model = &models::find_model(f.model);
  in.device = &cost::Catalog::builtin().accelerator(f.device);
  in.tp = int(f.tp);
  in.pp = int(f.pp);
  // Without --gpus the replica is the whole job; without --tp every GPU of it is tensor-parallel.
  in.gpus = int(gpus_given || f.tp == 0 ? f.gpus : std::min<long long>(f.tp * f.pp, INT32_MAX));
  in.batch = f.batch;
  in.context = f.context;
  in.precisions = serve_precisions(f);
  in.memory_fraction = f.memory_fraction;
  if (!f.link.empty()) in.topology.intra = &cost::Catalog::builtin().link(f.link);
  if (!f.inter_link.empty()) in.topology.inter = &cost::Catalog::builtin().link(f.inter_link);
  in.topology.gpus_per_node = int(f.gpus_per_node);
  in.price_per_gpu_hour = f.price;
  return in;
}

void add_serve(CLI::App& budget) {
  auto f = std::make_shared<ServeFlags>();
  auto* c = budget.add_subcommand("serve", "Weights, KV cache, largest batch, prefill and decode step times");
  add_model_option(c, f->model)->required();
  add_accelerator_option(c, f->device)->required();
  auto* gpus = add_count_option(c, "--gpus", f->gpus, "all GPUs: tp x pp x dp (default: tp x pp)", 1, INT32_MAX)
                   ->capture_default_str();
  add_count_option(c, "--tp", f->tp, "tensor-parallel degree (default: --gpus / --pp)", 0, INT32_MAX);
  add_count_option(c, "--pp", f->pp, "pipeline stages", 1, INT32_MAX)->capture_default_str();
  add_count_option(c, "--batch", f->batch, "concurrent sequences per replica", 1, 1000000000)->capture_default_str();
  add_count_option(c, "--context", f->context, "tokens per sequence in the KV cache", 1, 1000000000)->required();
  c->add_option("--dtype", f->dtype, "default for the three precisions below")->capture_default_str();
  c->add_option("--weights", f->weights, "weight precision: int4, int8, fp8, bf16, fp16, fp32");
  c->add_option("--activations", f->activations, "activation precision: int8, fp8, bf16, fp16, fp32");
  c->add_option("--kv", f->kv, "KV-cache precision: int8, fp8, bf16, fp16, fp32");
  add_count_option(c, "--int4-group", f->int4_group, "int4 weights per fp16 scale + zero", 8, 1048576)
      ->capture_default_str();
  c->add_option("--memory-fraction", f->memory_fraction, "fraction of HBM for weights + KV")->capture_default_str();
  c->add_option("--link", f->link, "link inside a server (simt links; default: the device's NVLink or PCIe)");
  c->add_option("--inter-link", f->inter_link,
                "link between servers (default: IB-NDR for Hopper/Blackwell, else IB-HDR)");
  add_count_option(c, "--gpus-per-node", f->gpus_per_node, "GPUs per server: groups larger than this cross the network",
                    1, 1024)
      ->capture_default_str();
  c->add_option("--price-per-gpu-hour", f->price, "USD per GPU-hour, for $ per million tokens");
  c->add_flag("--json", f->json, "print JSON");
  c->add_flag("--explain", f->explain, "per-operator table with each operator's binding term");
  c->callback([f, gpus] {
    const auto b = cost::serve_budget(serve_input(*f, gpus->count() > 0));
    if (f->json) fmt::print("{}\n", cost::to_json(b).dump(2));
    else fmt::print("{}", cost::to_text(b, f->explain));
  });
}

}  // namespace

void add_budget_commands(CLI::App& app) {
  auto* budget = app.add_subcommand("budget", "LLM training and serving budgets");
  budget->require_subcommand(1);
  add_train(*budget);
  add_serve(*budget);
  add_finetune_command(*budget);
}

}  // namespace simt::cli
