// What is counted (each a row of the output):
//  - base weights: full and LoRA in bf16; QLoRA stores the transformer's linear
//    layers in NF4 with double quantization and keeps embeddings, LM head and
//    norms in bf16 (bitsandbytes quantizes nn.Linear modules inside the blocks);
//  - trainable parameters' gradients and optimizer states (the state convention);
//  - activations for backward: cost/train/activations.cpp with FlashAttention, plus the
//    LoRA path's r-wide intermediate per adapted module; with checkpointing only
//    each layer's input plus one layer's worth being recomputed;
//  - the logits: bf16 plus the fp32 copy the cross-entropy upcasts to (6 B per
//    token and vocabulary entry), the largest single activation of a 128k vocabulary.
#include "cost/train/finetune_memory.hpp"

#include "cost/train/llm_dtype.hpp"
#include "cost/train/memory.hpp"
#include "models/params.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

namespace {

constexpr double kBf16 = 2;

void validate(const FinetuneInput& in) {
  if (!in.model) throw std::invalid_argument("a model is required");
  if (in.seq < 1 || in.micro_batch < 1)
    throw std::invalid_argument(fmt::format("seq and micro-batch must be positive (seq {}, micro-batch {})", in.seq,
                                            in.micro_batch));
  if (in.method != FinetuneMethod::Full && (in.lora_rank < 1 || in.lora_rank > in.model->d_model))
    throw std::invalid_argument(fmt::format("LoRA rank must be between 1 and d_model {}, got {}", in.model->d_model,
                                            in.lora_rank));
  if (in.method != FinetuneMethod::Full && in.model->is_mla())
    throw std::invalid_argument(in.model->name + ": LoRA targets for MLA attention are not modelled");
}

// (in, out) widths of the adapted linear layers of one layer, and how many copies.
struct Linear { double in, out, copies; };

std::vector<Linear> adapted_linears(const models::ModelConfig& m, bool all_linear) {
  const double d = m.d_model, q = double(m.heads * m.d_head), kv = double(m.kv_heads * m.d_head);
  std::vector<Linear> l{{d, q, 1}, {d, kv, 1}, {d, kv, 1}, {q, d, 1}};
  if (!all_linear) return l;
  const bool moe = m.is_moe();
  const double width = moe ? m.moe.expert_ffn : m.ffn;
  const double copies = moe ? m.moe.routed_experts + m.moe.shared_experts : 1;
  const int mats = m.mlp == models::MlpKind::SwiGLU ? 2 : 1;  // gate and up, or up
  l.push_back({d, width, mats * copies});
  l.push_back({width, d, copies});
  return l;
}

double lora_params(const models::ModelConfig& m, const FinetuneInput& in) {
  double per_layer = 0;
  for (const auto& l : adapted_linears(m, in.lora_all_linear)) per_layer += l.copies * in.lora_rank * (l.in + l.out);
  return per_layer * m.layers;
}

void add(FinetuneMemory& f, std::string what, double bytes, std::string how) {
  f.items.push_back({std::move(what), bytes, std::move(how)});
  f.total += bytes;
}

void add_weights(FinetuneMemory& f, const models::ParamCount& pc) {
  const double total = double(pc.total);
  if (f.in.method != FinetuneMethod::Qlora) {
    add(f, "base weights", kBf16 * total, fmt::format("{:.4g} params x 2 B (bf16)", total));
    return;
  }
  const double kept = double(pc.embedding + pc.positions + pc.lm_head + pc.norms);
  const double quantized = total - kept;
  add(f, "base weights (NF4)", nf4_double_quant_bytes() * quantized,
      fmt::format("{:.4g} linear-layer params x {:.4g} B (NF4 + double quantization)", quantized,
                  nf4_double_quant_bytes()));
  add(f, "embeddings, head, norms", kBf16 * kept, fmt::format("{:.4g} params x 2 B (bf16, not quantized)", kept));
}

void add_trainable_states(FinetuneMemory& f) {
  const double per = state_bytes_per_param(f.in.states);
  const double n = f.trainable_params;
  const bool full = f.in.method == FinetuneMethod::Full;
  if (!full) add(f, "adapter weights", kBf16 * n, fmt::format("{:.4g} LoRA params x 2 B", n));
  add(f, "gradients", kBf16 * n, fmt::format("{:.4g} trainable params x 2 B", n));
  add(f, "optimizer states", (per - 2 * kBf16) * n,
      fmt::format("{:.4g} trainable params x {:.4g} B ({})", n, per - 2 * kBf16,
                  f.in.states == StateConvention::Mixed ? "fp32 master, m, v" : "bf16 m, v"));
}

void add_activations(FinetuneMemory& f) {
  const auto& m = *f.in.model;
  const double T = double(f.in.seq) * double(f.in.micro_batch);
  ActivationInput a{.seq = f.in.seq, .micro_batch = f.in.micro_batch};
  a.flash_attention = true;
  const ActivationMemory layer = activation_memory(m, a);
  const double per_layer = layer.total / m.layers;
  if (f.in.checkpointing)
    add(f, "activations (checkpointed)", kBf16 * T * m.d_model * m.layers + per_layer,
        fmt::format("2 B x {:.4g} tokens x d {} x {} layer inputs + one layer recomputed ({:.4g} GB)", T,
                    m.d_model, m.layers, per_layer / 1e9));
  else
    add(f, "activations", layer.total,
        fmt::format("{} per layer x {} layers (FlashAttention)", layer.formula, m.layers));
  if (f.in.method != FinetuneMethod::Full) {
    double widths = 0;
    for (const auto& l : adapted_linears(m, f.in.lora_all_linear)) widths += l.copies;
    const double lora = kBf16 * T * f.in.lora_rank * widths * (f.in.checkpointing ? 1 : m.layers);
    add(f, "LoRA intermediates", lora,
        fmt::format("x A (rank {}) of {:.4g} adapted modules per layer", f.in.lora_rank, widths));
  }
  add(f, "logits", 6 * T * m.vocab,
      fmt::format("{:.4g} tokens x vocab {} x (2 B bf16 + 4 B fp32 for the loss)", T, m.vocab));
}

}  // namespace

FinetuneMethod parse_finetune_method(const std::string& s) {
  if (s == "full") return FinetuneMethod::Full;
  if (s == "lora") return FinetuneMethod::Lora;
  if (s == "qlora") return FinetuneMethod::Qlora;
  throw std::invalid_argument("unknown fine-tuning method '" + s + "' (full, lora or qlora)");
}

const char* to_string(FinetuneMethod m) {
  switch (m) {
    case FinetuneMethod::Full: return "full";
    case FinetuneMethod::Lora: return "lora";
    case FinetuneMethod::Qlora: return "qlora";
  }
  return "?";
}

StateConvention parse_state_convention(const std::string& s) {
  if (s == "mixed") return StateConvention::Mixed;
  if (s == "bf16") return StateConvention::Bf16;
  throw std::invalid_argument("unknown state convention '" + s + "' (mixed: 16 B/param, bf16: 8 B/param)");
}

double state_bytes_per_param(StateConvention c) { return c == StateConvention::Mixed ? 16 : 8; }

double nf4_double_quant_bytes() { return (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8; }

FinetuneMemory finetune_memory(const FinetuneInput& in) {
  validate(in);
  FinetuneMemory f;
  f.in = in;
  const auto pc = models::count_params(*in.model);
  f.trainable_params = in.method == FinetuneMethod::Full ? double(pc.total) : lora_params(*in.model, in);
  add_weights(f, pc);
  add_trainable_states(f);
  add_activations(f);
  return f;
}

std::string to_text(const FinetuneMemory& f) {
  const auto& in = f.in;
  std::string o = fmt::format("{} fine-tuning of {}, seq {} x micro-batch {}{}, states {} ({} B/trainable param){}\n",
                              to_string(in.method), in.model->name, in.seq, in.micro_batch,
                              in.method == FinetuneMethod::Full ? "" : fmt::format(", LoRA rank {}", in.lora_rank),
                              in.states == StateConvention::Mixed ? "mixed" : "bf16", state_bytes_per_param(in.states),
                              in.checkpointing ? ", gradient checkpointing" : "");
  for (const auto& i : f.items) o += fmt::format("  {:<28} {:>24}   {}\n", i.what, gb_and_gib(i.bytes), i.how);
  o += fmt::format("  {:<28} {:>24}\n", "total", gb_and_gib(f.total));
  return o;
}

nlohmann::json to_json(const FinetuneMemory& f) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& i : f.items) items.push_back({{"what", i.what}, {"bytes", i.bytes}, {"how", i.how}});
  return {{"model", f.in.model->name}, {"method", to_string(f.in.method)},
          {"states_bytes_per_param", state_bytes_per_param(f.in.states)}, {"seq", f.in.seq},
          {"micro_batch", f.in.micro_batch}, {"lora_rank", f.in.lora_rank}, {"checkpointing", f.in.checkpointing},
          {"trainable_params", f.trainable_params}, {"items", items}, {"total_bytes", f.total}};
}

}  // namespace simt::cost
