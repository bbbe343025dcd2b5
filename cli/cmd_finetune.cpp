// simt budget finetune: memory of full fine-tuning, LoRA and QLoRA on one GPU.
#include "commands.hpp"
#include "options.hpp"

#include "cost/train/finetune_memory.hpp"
#include "cost/train/llm_dtype.hpp"
#include "models/zoo.hpp"

#include <fmt/core.h>

#include <memory>

namespace simt::cli {

namespace {

struct FinetuneFlags {
  std::string model, method, states = "bf16";
  long long seq = 2048, micro_batch = 1, rank = 16;
  bool attention_only = false, json = false;
  std::string checkpointing = "auto";
};

cost::FinetuneInput input_for(const FinetuneFlags& f, cost::FinetuneMethod method) {
  cost::FinetuneInput in;
  in.model = &models::find_model(f.model);
  in.method = method;
  in.states = cost::parse_state_convention(f.states);
  in.seq = f.seq;
  in.micro_batch = f.micro_batch;
  in.lora_rank = int(f.rank);
  in.lora_all_linear = !f.attention_only;
  if (f.checkpointing != "auto" && f.checkpointing != "on" && f.checkpointing != "off")
    throw std::invalid_argument("--checkpointing must be auto, on or off, got '" + f.checkpointing + "'");
  // auto: as the QLoRA paper trains (checkpointing on), the others off.
  in.checkpointing = f.checkpointing == "on" || (f.checkpointing == "auto" && method == cost::FinetuneMethod::Qlora);
  return in;
}

void run(const FinetuneFlags& f) {
  std::vector<cost::FinetuneMethod> methods;
  if (f.method.empty())
    methods = {cost::FinetuneMethod::Full, cost::FinetuneMethod::Lora, cost::FinetuneMethod::Qlora};
  else
    methods = {cost::parse_finetune_method(f.method)};
  nlohmann::json all = nlohmann::json::array();
  for (auto method : methods) {
    const auto mem = cost::finetune_memory(input_for(f, method));
    if (f.json) all.push_back(cost::to_json(mem));
    else fmt::print("{}\n", cost::to_text(mem));
  }
  // The standard mixed-precision Adam figure, beside whatever convention was chosen.
  FinetuneFlags mixed = f;
  mixed.states = "mixed";
  const auto standard = cost::finetune_memory(input_for(mixed, cost::FinetuneMethod::Full));
  const double states = standard.trainable_params * 16;
  if (f.json) {
    fmt::print("{}\n", nlohmann::json{{"methods", all}, {"mixed_precision_adam_16B_per_param_bytes", states}}.dump(2));
    return;
  }
  fmt::print("For comparison: full fine-tuning with mixed-precision Adam keeps 16 B/param (2 bf16 weights + 2 grads\n"
             "+ 12 fp32 master, m, v; Rajbhandari et al. 2020): {} of model states before any activation.\n",
             cost::gb_and_gib(states));
}

}  // namespace

void add_finetune_command(CLI::App& budget) {
  auto f = std::make_shared<FinetuneFlags>();
  auto* c = budget.add_subcommand("finetune", "Fine-tuning memory on one GPU: full vs LoRA vs QLoRA");
  add_model_option(c, f->model)->required();
  c->add_option("--method", f->method, "full, lora or qlora (default: all three)");
  c->add_option("--states", f->states, "trainable-parameter states: bf16 (8 B/param) or mixed (16 B/param)")
      ->capture_default_str();
  add_count_option(c, "--seq", f->seq, "tokens per sequence", 1, 1000000000)->capture_default_str();
  add_count_option(c, "--micro-batch", f->micro_batch, "sequences per step", 1, 1000000)->capture_default_str();
  add_count_option(c, "--rank", f->rank, "LoRA rank r", 1, 1000000)->capture_default_str();
  c->add_flag("--attention-only", f->attention_only, "LoRA on q, k, v, o only (default: every linear layer)");
  c->add_option("--checkpointing", f->checkpointing, "gradient checkpointing: auto (QLoRA on), on, off")
      ->capture_default_str();
  c->add_flag("--json", f->json, "print JSON");
  c->callback([f] { run(*f); });
}

}  // namespace simt::cli
