// Refusing impossible inputs before any arithmetic: parallel layouts the model
// cannot be split into, and numbers that are not positive and finite.
#pragma once
#include "models/model.hpp"

#include <cstdint>
#include <string>

namespace simt::cost {

// The largest GPU count accepted. The largest published training clusters hold
// ~100k GPUs (Meta's two 24k-H100 clusters, 2024; xAI's 100k-H100 Colossus,
// 2024); 2^20 leaves ten times headroom and keeps tp x pp x dp far from overflow.
constexpr int64_t kMaxGpus = int64_t(1) << 20;

// Throws std::invalid_argument naming the constraint:
//  tp, pp >= 1; tp x pp <= gpus <= kMaxGpus; gpus = tp x pp x dp;
//  heads % tp == 0 (each GPU holds whole query heads: Megatron-LM splits heads);
//  kv_heads % tp == 0 or tp % kv_heads == 0 (KV heads split evenly, or each
//  replicated on tp/kv_heads GPUs, as vLLM and Megatron do for GQA/MQA);
//  layers % pp == 0 (every pipeline stage holds the same whole number of layers).
// `model` may be null (a bare parameter count): only the GPU arithmetic is checked.
// Returns dp = gpus / (tp x pp).
int64_t check_layout(const models::ModelConfig* model, int64_t gpus, int64_t tp, int64_t pp);

// Throws "<what> must be a positive finite number, got <v>" (NaN, inf, <= 0).
void require_positive(double v, const std::string& what);
// The same but 0 allowed ("not given").
void require_non_negative(double v, const std::string& what);

}  // namespace simt::cost
