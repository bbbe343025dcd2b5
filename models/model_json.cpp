#include "models/model_json.hpp"

#include "models/params.hpp"

#include <fmt/core.h>

namespace simt::models {

nlohmann::json to_json(const ModelConfig& m) {
  const ParamCount c = count_params(m);
  nlohmann::json j = {{"name", m.name},
                      {"description", m.description},
                      {"params", c.total},
                      {"active_params", c.active},
                      {"active_compute_params", c.active_compute},
                      {"layers", m.layers},
                      {"d_model", m.d_model},
                      {"heads", m.heads},
                      {"kv_heads", m.kv_heads},
                      {"d_head", m.d_head},
                      {"ffn", m.ffn},
                      {"vocab", m.vocab},
                      {"context", m.context},
                      {"attention", m.attention_kind()},
                      {"norm", to_string(m.norm)},
                      {"mlp", to_string(m.mlp)},
                      {"positions", to_string(m.positions)},
                      {"tied_embeddings", m.tied_embeddings},
                      {"biases", m.biases},
                      {"source", m.source}};
  j["param_breakdown"] = {{"embedding", c.embedding},     {"positions", c.positions},
                          {"lm_head", c.lm_head},         {"attention", c.attention},
                          {"dense_mlp", c.dense_mlp},     {"routed_experts", c.routed_experts},
                          {"shared_experts", c.shared_experts}, {"routers", c.routers},
                          {"norms", c.norms}};
  if (m.is_mla())
    j["mla"] = {{"q_lora_rank", m.mla.q_lora_rank}, {"kv_lora_rank", m.mla.kv_lora_rank},
                {"qk_nope_dim", m.mla.qk_nope_dim}, {"qk_rope_dim", m.mla.qk_rope_dim},
                {"v_head_dim", m.mla.v_head_dim}};
  if (m.is_moe())
    j["moe"] = {{"routed_experts", m.moe.routed_experts}, {"active_experts", m.moe.active_experts},
                {"shared_experts", m.moe.shared_experts}, {"expert_ffn", m.moe.expert_ffn},
                {"first_dense_layers", m.moe.first_dense_layers}};
  j["published"] = nlohmann::json::array();
  for (const auto& p : m.published)
    j["published"].push_back({{"what", p.what}, {"value", p.value}, {"source", p.source}});
  return j;
}

namespace {
// 8030261248 -> "8,030,261,248": parameter counts are read digit by digit.
std::string commas(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}
}  // namespace

std::string to_text(const ModelConfig& m) {
  const ParamCount c = count_params(m);
  std::string o = fmt::format("{}: {}\n", m.name, m.description);
  o += fmt::format("  layers {}, d_model {}, heads {} ({} kv heads, {}), d_head {}, ffn {}, vocab {}, context {}\n",
                   m.layers, m.d_model, m.heads, m.kv_heads, m.attention_kind(), m.d_head, m.ffn, m.vocab, m.context);
  o += fmt::format("  {}, {} MLP, {} positions, {} embeddings, {}\n", to_string(m.norm), to_string(m.mlp),
                   to_string(m.positions), m.tied_embeddings ? "tied" : "untied",
                   m.biases ? "biases" : "no biases");
  if (m.is_mla())
    o += fmt::format("  MLA: q_lora_rank {}, kv_lora_rank {}, qk_nope {}, qk_rope {}, v_head {}\n", m.mla.q_lora_rank,
                     m.mla.kv_lora_rank, m.mla.qk_nope_dim, m.mla.qk_rope_dim, m.mla.v_head_dim);
  if (m.is_moe())
    o += fmt::format("  MoE: {} routed experts (top-{}), {} shared, expert ffn {}, first {} layers dense\n",
                     m.moe.routed_experts, m.moe.active_experts, m.moe.shared_experts, m.moe.expert_ffn,
                     m.moe.first_dense_layers);
  o += fmt::format("  parameters  {:>17} total\n", commas(c.total));
  o += fmt::format("              {:>17} active per token (incl. embedding table)\n", commas(c.active));
  o += fmt::format("              {:>17} active doing matmuls (N of 6ND; lookups excluded)\n", commas(c.active_compute));
  auto part = [&](const char* what, int64_t n) {
    if (n) o += fmt::format("    {:<16} {:>17}  {:5.1f}%\n", what, commas(n), 100.0 * double(n) / double(c.total));
  };
  part("embedding", c.embedding);
  part("positions", c.positions);
  part("lm_head", c.lm_head);
  part("attention", c.attention);
  part("dense MLP", c.dense_mlp);
  part("routed experts", c.routed_experts);
  part("shared experts", c.shared_experts);
  part("routers", c.routers);
  part("norms", c.norms);
  for (const auto& p : m.published)
    o += fmt::format("  published {} {:.4g}: {}\n", p.what, p.value, p.source);
  o += fmt::format("  architecture source: {}\n", m.source);
  return o;
}

}  // namespace simt::models
