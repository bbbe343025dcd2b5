// Each entry's numbers come from the cited config or paper; the published counts
// are checked against count_params() in tests/models/test_params.cpp.
#include "models/zoo.hpp"

#include "util/near_miss.hpp"

#include <cctype>
#include <stdexcept>

namespace simt::models {

namespace {


// GPT-2 family: LayerNorm, GELU MLP of 4d, learned positions, tied embeddings,
// biases everywhere (Radford et al. 2019; HF config.json n_layer/n_embd/n_head).
ModelConfig gpt2(std::string name, std::string desc, std::string hf, int layers, int64_t d,
                 int64_t heads, double published) {
  ModelConfig m;
  m.name = std::move(name);
  m.description = std::move(desc);
  m.source = "HF config https://huggingface.co/openai-community/" + hf + "/blob/main/config.json";
  m.layers = layers;
  m.d_model = d;
  m.heads = m.kv_heads = heads;
  m.d_head = d / heads;
  m.ffn = 4 * d;
  m.vocab = 50257;
  m.context = 1024;
  m.tied_embeddings = true;
  m.biases = true;
  m.published = {{"total", published, 0, "HF model card: parameter count of the released checkpoint"}};
  return m;
}

// GPT-3-style model of Brown et al. 2020 (Table 2.1): GPT-2 architecture, context 2048.
ModelConfig gpt3_style(std::string name, std::string desc, std::string source, int layers, int64_t d,
                       int64_t heads) {
  ModelConfig m = gpt2(std::move(name), std::move(desc), "gpt2", layers, d, heads, 0);
  m.source = std::move(source);
  m.context = 2048;
  m.published.clear();
  return m;
}

// LLaMA / Llama-3 family: RMSNorm, SwiGLU, rotary, untied, no biases.
ModelConfig llama(std::string name, std::string desc, std::string source, int layers, int64_t d,
                  int64_t heads, int64_t kv_heads, int64_t ffn, int64_t vocab, int64_t context) {
  ModelConfig m;
  m.name = std::move(name);
  m.description = std::move(desc);
  m.source = std::move(source);
  m.layers = layers;
  m.d_model = d;
  m.heads = heads;
  m.kv_heads = kv_heads;
  m.d_head = d / heads;
  m.ffn = ffn;
  m.vocab = vocab;
  m.context = context;
  m.norm = Norm::RMSNorm;
  m.mlp = MlpKind::SwiGLU;
  m.positions = Positions::Rotary;
  return m;
}

ModelConfig mixtral_8x7b() {
  ModelConfig m = llama("mixtral-8x7b", "Mistral Mixtral 8x7B (sparse MoE, top-2 of 8)",
                        "Jiang et al. 2024, Mixtral of Experts, arXiv:2401.04088, Table 1; "
                        "HF mistralai/Mixtral-8x7B-v0.1 config.json",
                        32, 4096, 32, 8, 14336, 32000, 32768);
  m.moe = {.routed_experts = 8, .active_experts = 2, .shared_experts = 0, .expert_ffn = 14336,
           .first_dense_layers = 0, .router_bias = false};
  m.published = {
      {"total", 46.7e9, 0.1e9, "Mistral AI, 'Mixtral of experts' (2023-12-11): 46.7B total"},
      {"active", 12.9e9, 0.1e9, "Mistral AI, 'Mixtral of experts': 12.9B per token"}};
  return m;
}

ModelConfig deepseek_v3() {
  ModelConfig m = llama("deepseek-v3", "DeepSeek-V3 (MLA + DeepSeekMoE, 1 shared + top-8 of 256)",
                        "HF deepseek-ai/DeepSeek-V3 config.json; DeepSeek-AI 2024, "
                        "DeepSeek-V3 Technical Report, arXiv:2412.19437, Sec. 4.2",
                        61, 7168, 128, 128, 18432, 129280, 4096);
  m.d_head = 128;  // v_head_dim; queries/keys use qk_nope + qk_rope = 192
  m.mla = {.q_lora_rank = 1536, .kv_lora_rank = 512, .qk_nope_dim = 128, .qk_rope_dim = 64,
           .v_head_dim = 128};
  m.moe = {.routed_experts = 256, .active_experts = 8, .shared_experts = 1, .expert_ffn = 2048,
           .first_dense_layers = 3, .router_bias = true};
  m.published = {
      {"total", 671e9, 1e9, "DeepSeek-V3 Technical Report, arXiv:2412.19437, abstract (671B; "
                                  "excludes the 14B multi-token-prediction module)"},
      {"active_compute", 37e9, 1e9, "DeepSeek-V3 Technical Report, abstract (37B activated per token)"},
      {"active_compute", 36.6e9, 0.1e9,
       "deepseek-ai/DeepSeek-V3 README_WEIGHTS.md: 36.6B activated incl. 0.9B output head"}};
  return m;
}

std::vector<ModelConfig> build_zoo() {
  std::vector<ModelConfig> z;
  z.push_back(gpt2("gpt2-small", "OpenAI GPT-2 small (124M)", "gpt2", 12, 768, 12, 124439808));
  z.push_back(gpt2("gpt2-medium", "OpenAI GPT-2 medium (355M)", "gpt2-medium", 24, 1024, 16, 354823168));
  z.push_back(gpt2("gpt2-large", "OpenAI GPT-2 large (774M)", "gpt2-large", 36, 1280, 20, 774030080));
  z.push_back(gpt2("gpt2-xl", "OpenAI GPT-2 XL (1.5B)", "gpt2-xl", 48, 1600, 25, 1557611200));

  z.push_back(gpt3_style("gpt3-175b", "OpenAI GPT-3 175B",
                         "Brown et al. 2020, Language Models are Few-Shot Learners, Table 2.1", 96, 12288, 96));
  z.back().published = {{"total", 175.0e9, 1e9, "Brown et al. 2020, Table 2.1 (rounded)"}};
  z.push_back(gpt3_style("gpt3-100b", "Hypothetical 100B GPT-3-style model (course exercise)",
                         "course exercise: 80 layers, d 10240, 80 heads, vocab 50257, context 2048",
                         80, 10240, 80));

  z.push_back(llama("llama-7b", "Meta LLaMA 7B", "Touvron et al. 2023, arXiv:2302.13971, Table 2; "
                    "HF huggyllama/llama-7b config.json (intermediate_size 11008)",
                    32, 4096, 32, 32, 11008, 32000, 2048));
  z.back().published = {{"total", 6738415616, 0, "HF model card of LLaMA 7B (6,738,415,616)"}};
  z.push_back(llama("llama-65b", "Meta LLaMA 65B", "Touvron et al. 2023, arXiv:2302.13971, Table 2; "
                    "HF huggyllama/llama-65b config.json (intermediate_size 22016)",
                    80, 8192, 64, 64, 22016, 32000, 2048));
  z.back().published = {{"total", 65.2e9, 0.1e9, "Touvron et al. 2023, Table 2 (65.2B)"}};

  const std::string l3 = "HF meta-llama/Meta-Llama-3-{8B,70B} and Llama-3.1-405B config.json; "
                         "Llama Team 2024, The Llama 3 Herd of Models, arXiv:2407.21783, Table 3";
  z.push_back(llama("llama3-8b", "Meta Llama 3 8B", l3, 32, 4096, 32, 8, 14336, 128256, 8192));
  z.back().published = {{"total", 8030261248, 0, "HF meta-llama/Meta-Llama-3-8B safetensors: 8,030,261,248"}};
  z.push_back(llama("llama3-70b", "Meta Llama 3 70B", l3, 80, 8192, 64, 8, 28672, 128256, 8192));
  z.back().published = {{"total", 70553706496, 0, "HF meta-llama/Meta-Llama-3-70B safetensors: 70,553,706,496"}};
  z.push_back(llama("llama3-405b", "Meta Llama 3.1 405B", l3, 126, 16384, 128, 8, 53248, 128256, 8192));
  z.back().published = {{"total", 405.8e9, 0.1e9, "HF meta-llama/Llama-3.1-405B: 405.8B (Llama 3 paper: 405B)"}};

  z.push_back(mixtral_8x7b());
  z.push_back(deepseek_v3());
  return z;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const std::vector<ModelConfig>& zoo() {
  static const std::vector<ModelConfig> z = build_zoo();
  return z;
}

std::vector<std::string> model_names() {
  std::vector<std::string> names;
  for (const auto& m : zoo()) names.push_back(m.name);
  return names;
}

const ModelConfig& find_model(const std::string& name) {
  for (const auto& m : zoo())
    if (m.name == lower(name)) return m;
  throw std::invalid_argument(unknown_name_message("model", name, model_names(), "simt model list"));
}

const char* to_string(Norm n) { return n == Norm::RMSNorm ? "RMSNorm" : "LayerNorm"; }
const char* to_string(MlpKind k) { return k == MlpKind::SwiGLU ? "SwiGLU" : "GELU"; }
const char* to_string(Positions p) { return p == Positions::Rotary ? "rotary" : "learned"; }

std::string ModelConfig::attention_kind() const {
  if (is_mla()) return "MLA";
  if (kv_heads == heads) return "MHA";
  return kv_heads == 1 ? "MQA" : "GQA";
}

}  // namespace simt::models
