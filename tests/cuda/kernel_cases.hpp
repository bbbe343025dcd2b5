// The course-kernel runs whose outputs are compared bit for bit between a real
// GPU and the simulator: every registered kernel with its defaults, plus shapes
// that exercise the bounds checks. Used by kernel_outputs_main.cu (GPU side)
// and tests/kernels/test_gpu_outputs.cpp (simulator side).
#pragma once
#include "kernels/harness.hpp"

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace simt::validation {

struct KernelCase {
  std::string kernel;
  std::string tag;                            // "" for the defaults, "+odd"... for other shapes
  std::map<std::string, std::string> params;  // on top of the defaults
  std::string label() const { return kernel + tag; }
};

inline std::vector<KernelCase> kernel_cases() {
  std::vector<KernelCase> cases;
  for (const kernels::KernelSpec& k : kernels::registry()) cases.push_back({k.name, "", {}});
  cases.push_back({"map", "+odd", {{"shape", "5,37,19"}, {"permute", "2,0,1"}, {"op", "square"}, {"block", "96"}}});
  cases.push_back({"zip", "+odd", {{"a", "3,1,7"}, {"b", "5,1"}, {"op", "mul"}, {"block", "64"}}});
  cases.push_back({"reduce_dim", "+odd", {{"shape", "7,300,5"}, {"dim", "1"}, {"op", "max"}, {"block", "64"}}});
  for (const char* k : {"matmul_naive", "matmul_coalesced", "matmul_tiled", "matmul_wmma"})
    cases.push_back({k, "+odd", {{"batch", "3"}, {"m", "37"}, {"n", "50"}, {"k", "29"}}});
  for (const char* k : {"transpose_naive", "transpose_shared", "transpose_padded"})
    cases.push_back({k, "+odd", {{"rows", "100"}, {"cols", "37"}}});
  for (const char* k : {"reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential",
                        "reduce_warp_shuffle"}) {
    cases.push_back({k, "+odd", {{"n", "300001"}, {"block", "32"}}});
    cases.push_back({k, "+odd2", {{"n", "5000"}, {"block", "1024"}}});
  }
  for (const char* k : {"softmax_naive", "softmax_online", "softmax_warp_per_row", "softmax_block_per_row",
                        "softmax_lightseq"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}, {"causal", "1"}}});
    cases.push_back({k, "+odd2", {{"rows", "3"}, {"cols", "5"}}});
  }
  for (const char* k : {"layernorm_two_pass", "layernorm_welford", "layernorm_fused", "layernorm_vectorized",
                        "layernorm_half2"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}}});
    cases.push_back({k, "+odd2", {{"rows", "11"}, {"cols", "131"}}});
  }
  for (const char* k : {"moe_router_atomic", "moe_router_block_scan", "moe_router_cub"}) {
    cases.push_back({k, "+odd", {{"tokens", "77"}, {"experts", "5"}, {"top-k", "3"}}});
    cases.push_back({k, "+odd2", {{"tokens", "1000"}, {"experts", "256"}, {"top-k", "8"}}});
  }
  for (const char* k : {"gemv_fp16", "gemv_int8", "gemv_int4", "gemv_fp8"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}}});
    cases.push_back({k, "+odd2", {{"rows", "19"}, {"cols", "257"}}});  // a partial int4 group
    cases.push_back({k, "+odd3", {{"rows", "3"}, {"cols", "1031"}}});
  }
  for (const char* k : {"attention_naive", "attention_flash", "attention_flash_wmma", "attention_naive_backward",
                        "attention_flash_backward"}) {
    cases.push_back({k, "+odd", {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"dim", "64"}, {"causal", "1"}}});
    cases.push_back({k, "+odd2", {{"heads", "2"}, {"seq", "33"}, {"dim", "128"}, {"causal", "0"}}});
  }
  for (const char* k : {"attention_flash_wmma", "attention_flash_backward"})
    cases.push_back({k, "+odd3", {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"dim", "128"}, {"causal", "1"}}});
  for (const char* k : {"softmax_backward_naive", "softmax_backward_warp_per_row", "softmax_backward_lightseq"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}}});
    cases.push_back({k, "+odd2", {{"rows", "70"}, {"cols", "33"}}});
    cases.push_back({k, "+causal", {{"rows", "37"}, {"cols", "100"}, {"causal", "1"}}});
  }
  cases.push_back({"softmax_lightseq", "+odd3", {{"rows", "5"}, {"cols", "3000"}, {"causal", "1"}}});
  cases.push_back({"layernorm_half2", "+odd3", {{"rows", "3"}, {"cols", "25001"}}});  // past 48 KiB of halves
  for (const char* k : {"layernorm_backward_naive", "layernorm_backward_fused"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}}});
    cases.push_back({k, "+odd2", {{"rows", "21"}, {"cols", "3001"}}});  // fused: the uncached path
  }
  for (const char* k : {"bias_gelu_separate", "bias_gelu_fused"})
    cases.push_back({k, "+odd", {{"rows", "7"}, {"cols", "131"}}});  // the scalar path
  for (const char* k : {"bias_dropout_residual_separate", "bias_dropout_residual_fused"}) {
    cases.push_back({k, "+odd", {{"rows", "11"}, {"cols", "131"}, {"p", "0.5"}, {"seed", "7"}}});
    cases.push_back({k, "+odd2", {{"rows", "37"}, {"cols", "100"}, {"p", "0.1"}, {"seed", "7"}}});
  }
  for (const char* k : {"decode_contiguous", "decode_paged", "decode_gqa", "decode_fp8_kv"}) {
    cases.push_back({k, "+odd", {{"batch", "3"}, {"seq", "37"}, {"heads", "6"}, {"kv_heads", "3"}, {"dim", "32"}}});
    cases.push_back({k, "+odd2", {{"batch", "2"}, {"seq", "100"}, {"heads", "8"}, {"kv_heads", "1"}, {"dim", "128"}}});
  }
  cases.push_back({"decode_fp8_kv", "+odd3", {{"batch", "5"}, {"seq", "1"}, {"heads", "4"}, {"kv_heads", "4"}, {"dim", "96"}}});
  cases.push_back({"decode_fp8_kv", "+odd4", {{"batch", "7"}, {"seq", "23"}, {"heads", "8"}, {"kv_heads", "2"}, {"dim", "64"}}});
  cases.push_back({"rope", "+odd", {{"tokens", "37"}, {"heads", "3"}, {"kv_heads", "1"}, {"dim", "6"}, {"pos0", "1000"}}});
  for (const char* k : {"matmul_blocktile_1d", "matmul_blocktile_2d", "matmul_vectorized", "matmul_warptile"}) {
    cases.push_back({k, "+odd", {{"batch", "3"}, {"m", "37"}, {"n", "50"}, {"k", "29"}}});   // the scalar path
    cases.push_back({k, "+odd2", {{"batch", "2"}, {"m", "37"}, {"n", "52"}, {"k", "28"}}});  // float4, partial tiles
  }
  return cases;
}

// FNV-1a over the float bits: equal hashes mean bit-identical buffers.
inline std::uint64_t output_hash(const std::vector<float>& data) {
  std::uint64_t h = 14695981039346656037ull;
  for (float f : data) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, 4);
    for (int i = 0; i < 4; ++i) h = (h ^ ((bits >> (8 * i)) & 0xFF)) * 1099511628211ull;
  }
  return h;
}

}  // namespace simt::validation
