#include "cost/train/precision.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

Format parse_format(const std::string& name, int int4_group) {
  if (name == "fp32") return {"fp32", 4, "fp32", "4 B"};
  if (name == "tf32") return {"tf32", 4, "tf32", "4 B (fp32 storage, tf32 tensor-core math)"};
  if (name == "fp16") return {"fp16", 2, "fp16", "2 B"};
  if (name == "bf16") return {"bf16", 2, "bf16", "2 B"};
  if (name == "fp8") return {"fp8", 1, "fp8", "1 B (E4M3; per-tensor scale, negligible)"};
  if (name == "int8") return {"int8", 1, "int8", "1 B (per-channel scale, negligible)"};
  if (name == "int4") {
    if (int4_group < 8 || int4_group > 1 << 20)
      throw std::invalid_argument(fmt::format("int4 group size must be between 8 and 1048576, got {}", int4_group));
    // One fp16 scale and one fp16 zero point per group.
    const double bytes = 0.5 + 4.0 / int4_group;
    return {"int4", bytes, "int4",
            fmt::format("0.5 B + fp16 scale and zero per {} weights = {:.5g} B", int4_group, bytes)};
  }
  throw std::invalid_argument("unknown precision '" + name + "' (int4, int8, fp8, bf16, fp16, tf32 or fp32)");
}

std::string Precisions::matmul_peak_key() const {
  // The math runs in the wider of the two operand formats.
  return activations.bytes >= weights.bytes ? activations.peak_key : weights.peak_key;
}

std::string Precisions::label() const {
  if (weights.name == activations.name && activations.name == kv.name) return weights.name;
  return fmt::format("weights {}, activations {}, KV cache {}", weights.name, activations.name, kv.name);
}

Precisions uniform_precisions(const std::string& name) {
  const Format f = parse_format(name);
  if (f.name == "int4")
    throw std::invalid_argument("int4 is a weight format: give --weights int4 with 16-bit activations (W4A16)");
  return {f, f, f};
}

void require_peaks(const Precisions& p, const DeviceSpec& device) {
  const std::string key = p.matmul_peak_key();
  if (!device.peak.count(key))
    throw std::invalid_argument(fmt::format(
        "{} has no published {} tensor-core peak (weights {}, activations {}): pick other precisions or another device",
        device.name, key, p.weights.name, p.activations.name));
}

}  // namespace simt::cost
