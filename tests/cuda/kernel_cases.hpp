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
  for (const char* k : {"softmax_naive", "softmax_online", "softmax_warp_per_row", "softmax_block_per_row"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}, {"causal", "1"}}});
    cases.push_back({k, "+odd2", {{"rows", "3"}, {"cols", "5"}}});
  }
  for (const char* k : {"layernorm_two_pass", "layernorm_welford", "layernorm_fused", "layernorm_vectorized"}) {
    cases.push_back({k, "+odd", {{"rows", "37"}, {"cols", "100"}}});
    cases.push_back({k, "+odd2", {{"rows", "11"}, {"cols", "131"}}});
  }
  for (const char* k : {"moe_router_atomic", "moe_router_block_scan", "moe_router_cub"}) {
    cases.push_back({k, "+odd", {{"tokens", "77"}, {"experts", "5"}, {"top-k", "3"}}});
    cases.push_back({k, "+odd2", {{"tokens", "1000"}, {"experts", "256"}, {"top-k", "8"}}});
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
