#include "cost/train/llm_dtype.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

Dtype parse_dtype(const std::string& name) {
  if (name == "fp32") return {"fp32", 4, "fp32"};
  if (name == "tf32") return {"tf32", 4, "tf32"};
  if (name == "fp16") return {"fp16", 2, "fp16"};
  if (name == "bf16") return {"bf16", 2, "bf16"};
  if (name == "fp8") return {"fp8", 1, "fp8"};
  if (name == "int8") return {"int8", 1, "int8"};
  throw std::invalid_argument("unknown dtype '" + name + "' (fp32, tf32, fp16, bf16, fp8 or int8)");
}

std::string gb_and_gib(double bytes) {
  return fmt::format("{:.2f} GB ({:.2f} GiB)", bytes / 1e9, bytes / double(1ull << 30));
}

}  // namespace simt::cost
