// simt model list | show, simt layer: parse flags, call models/ and cost/, print.
#include "commands.hpp"
#include "options.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/train/layer_cost_report.hpp"
#include "models/model_json.hpp"
#include "models/params.hpp"
#include "models/zoo.hpp"

#include <fmt/core.h>

#include <memory>

namespace simt::cli {

namespace {

void list_models(bool json) {
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& m : models::zoo()) out.push_back(models::to_json(m));
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{:<14} {:>9} {:>9} {:>6} {:>6} {:>5} {:<4}  {}\n", "name", "params", "active", "layers", "d", "heads",
             "attn", "description");
  for (const auto& m : models::zoo()) {
    const auto c = models::count_params(m);
    fmt::print("{:<14} {:>8.4g}B {:>8.4g}B {:>6} {:>6} {:>5} {:<4}  {}\n", m.name, c.total / 1e9, c.active / 1e9,
               m.layers, m.d_model, m.heads, m.attention_kind(), m.description);
  }
}

struct LayerFlags {
  std::string model, phase = "prefill", device, dtype = "bf16";
  long long seq = 0, batch = 1;
  long long layer = -1;  // -1: not given
  bool fused = false, causal = false, json = false, explain = false;
};

void run_layer(const LayerFlags& f) {
  const auto& m = models::find_model(f.model);
  const auto& device = cost::Catalog::builtin().accelerator(f.device);
  const cost::Dtype dtype = cost::parse_dtype(f.dtype);
  const models::LayerShape shape{.phase = models::parse_phase(f.phase), .batch = f.batch, .seq = f.seq,
                                 .fused = f.fused, .causal_halving = f.causal, .bytes_per_element = dtype.bytes,
                                 .layer_index = int(f.layer)};
  const auto lc = cost::cost_layer(m, shape, device, dtype);
  const cost::LayerReportContext ctx{m, shape, device, dtype, lc};
  if (f.json) fmt::print("{}\n", cost::to_json(ctx).dump(2));
  else fmt::print("{}", cost::to_text(ctx, f.explain));
}

}  // namespace

void add_model_commands(CLI::App& app) {
  auto* model = app.add_subcommand("model", "The LLM model zoo");
  model->require_subcommand(1);
  auto list_json = std::make_shared<bool>(false);
  auto* list = model->add_subcommand("list", "List the models with their parameter counts");
  list->add_flag("--json", *list_json, "print JSON");
  list->callback([list_json] { list_models(*list_json); });

  auto show_name = std::make_shared<std::string>();
  auto show_json = std::make_shared<bool>(false);
  auto* show = model->add_subcommand("show", "A model's shape, parameter breakdown and sources");
  show->add_option("name", *show_name, "model name")->required();
  show->add_flag("--json", *show_json, "print JSON");
  show->callback([show_name, show_json] {
    const auto& m = models::find_model(*show_name);
    if (*show_json) fmt::print("{}\n", models::to_json(m).dump(2));
    else fmt::print("{}", models::to_text(m));
  });

  auto f = std::make_shared<LayerFlags>();
  auto* layer = app.add_subcommand("layer", "One transformer layer as operators, priced on a device");
  add_model_option(layer, f->model)->required();
  layer->add_option("--phase", f->phase, "train, prefill or decode")->capture_default_str();
  add_count_option(layer, "--seq", f->seq, "tokens per sequence (decode: tokens already cached)", 1, 1000000000)
      ->required();
  add_count_option(layer, "--batch", f->batch, "sequences", 1, 1000000000)->capture_default_str();
  add_accelerator_option(layer, f->device)->required();
  layer->add_option("--dtype", f->dtype, "weights/activations dtype")->capture_default_str();
  add_count_option(layer, "--layer-index", f->layer,
                   "which layer, from 0 to layers - 1 (default: the first MoE layer, else 0)", 0, 1000000);
  layer->add_flag("--fused", f->fused, "FlashAttention, fused norms and epilogues");
  layer->add_flag("--causal", f->causal, "count only the unmasked half of QK^T and PV");
  layer->add_flag("--json", f->json, "print JSON");
  layer->add_flag("--explain", f->explain, "say how each op was counted");
  layer->callback([f] { run_layer(*f); });
}

}  // namespace simt::cli
