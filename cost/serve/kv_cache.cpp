#include "cost/serve/kv_cache.hpp"

#include <fmt/core.h>

namespace simt::cost {

KvCacheSize kv_cache_size(const models::ModelConfig& m, double bytes_per_element) {
  KvCacheSize k;
  if (m.is_mla()) {
    k.elements_per_token_per_layer = double(m.mla.kv_lora_rank + m.mla.qk_rope_dim);
    k.formula = fmt::format("L x (kv_lora_rank + rope_dim) x bytes = {} x ({} + {}) x {}", m.layers,
                            m.mla.kv_lora_rank, m.mla.qk_rope_dim, bytes_per_element);
  } else {
    k.elements_per_token_per_layer = 2.0 * double(m.kv_heads * m.d_head);
    k.formula = fmt::format("2 (K,V) x L x kv_heads x d_head x bytes = 2 x {} x {} x {} x {} ({})", m.layers,
                            m.kv_heads, m.d_head, bytes_per_element, m.attention_kind());
  }
  k.bytes_per_token = k.elements_per_token_per_layer * m.layers * bytes_per_element;
  return k;
}

double kv_replication(const models::ModelConfig& m, int tp) {
  if (m.is_mla()) return tp;
  return m.kv_heads < tp ? double(tp) / double(m.kv_heads) : 1.0;
}

}  // namespace simt::cost
