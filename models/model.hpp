// The shape of a decoder-only transformer LLM: everything needed to count its
// parameters, FLOPs and bytes, and nothing about devices (that is cost/'s job).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simt::models {

enum class Norm { LayerNorm, RMSNorm };
enum class MlpKind { Gelu, SwiGLU };    // GELU: up, act, down. SwiGLU: gate, up, silu*mul, down.
enum class Positions { Learned, Rotary };

// Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values go through
// low-rank "latent" projections; only the kv latent plus a small shared RoPE key
// is cached. Zero ranks mean "not MLA".
struct Mla {
  int q_lora_rank = 0;   // 0 = queries projected directly from d_model
  int kv_lora_rank = 0;  // width of the cached latent c_KV
  int qk_nope_dim = 0;   // per-head query/key width without rotary
  int qk_rope_dim = 0;   // per-head rotary width (the RoPE key is shared across heads)
  int v_head_dim = 0;
};

// Mixture of experts. Layers [0, first_dense_layers) use the dense MLP of width
// ModelConfig::ffn; the others use routed + shared experts of width expert_ffn.
struct Moe {
  int routed_experts = 0;
  int active_experts = 0;      // top-k routed experts per token
  int shared_experts = 0;      // always-on experts (DeepSeek)
  int expert_ffn = 0;
  int first_dense_layers = 0;
  bool router_bias = false;    // DeepSeek-V3's e_score_correction_bias (one per expert)
};

// A published figure about the model, kept next to it so tests and `model show`
// can compare against it.
struct Published {
  std::string what;    // "total", "active" or "active_compute" (see ParamCount)
  double value = 0;
  double rounding = 0; // one unit of its last digit (0.1e9 for "12.9B"); 0 = exact
  std::string source;  // URL or paper, table
};

struct ModelConfig {
  std::string name;         // zoo key, e.g. "llama3-8b"
  std::string description;  // e.g. "Meta Llama 3 8B"
  std::string source;       // where the architecture numbers come from
  int layers = 0;
  int64_t d_model = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;     // == heads: MHA; 1: MQA; otherwise GQA
  int64_t d_head = 0;
  int64_t ffn = 0;          // dense MLP width (intermediate size)
  int64_t vocab = 0;
  int64_t context = 0;      // training context length
  Norm norm = Norm::LayerNorm;
  MlpKind mlp = MlpKind::Gelu;
  Positions positions = Positions::Learned;
  bool tied_embeddings = false;
  bool biases = false;      // GPT-2/3 style: biases on every linear layer and norm
  Mla mla;
  Moe moe;
  std::vector<Published> published;

  bool is_mla() const { return mla.kv_lora_rank > 0; }
  bool is_moe() const { return moe.routed_experts > 0; }
  bool is_moe_layer(int layer) const { return is_moe() && layer >= moe.first_dense_layers; }
  int moe_layers() const { return is_moe() ? layers - moe.first_dense_layers : 0; }
  // Query/key and value widths per head (differ only for MLA).
  int64_t qk_head_dim() const { return is_mla() ? mla.qk_nope_dim + mla.qk_rope_dim : d_head; }
  int64_t v_head_dim() const { return is_mla() ? mla.v_head_dim : d_head; }
  std::string attention_kind() const;  // "MHA", "GQA", "MQA" or "MLA"
};

const char* to_string(Norm n);
const char* to_string(MlpKind m);
const char* to_string(Positions p);

}  // namespace simt::models
