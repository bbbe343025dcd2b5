// Separate storage precisions for weights, activations and the KV cache
// (W4A16, W8A8, fp8 KV ...), and the tensor-core peak a matmul runs at.
#pragma once
#include "cost/catalog/catalog.hpp"

#include <string>

namespace simt::cost {

// One number format as stored in HBM.
struct Format {
  std::string name;      // "int4", "int8", "fp8", "bf16", "fp16", "fp32"
  double bytes = 2;      // per element, group-wise scale overhead included (int4: 0.5 + 4/group)
  std::string peak_key;  // the catalog's peak for math in this format
  std::string note;      // how `bytes` was counted
};

// int4 keeps one fp16 scale and one fp16 zero point per `int4_group` weights
// (GPTQ/AWQ's default group of 128: Frantar et al. 2022, arXiv:2210.17323;
// Lin et al. 2023, arXiv:2306.00978): 0.5 + 4/128 = 0.53125 B per weight.
// Throws std::invalid_argument listing the accepted names.
Format parse_format(const std::string& name, int int4_group = 128);

struct Precisions {
  Format weights, activations, kv;
  // Matmul peak: a narrower weight format is dequantized to the activations'
  // format before the tensor-core math (W4A16 and W8A16 run at the fp16/bf16
  // rate; Lin et al. 2023 sec. 4); W8A8 and fp8 x fp8 run at the int8/fp8 rate.
  std::string matmul_peak_key() const;
  std::string label() const;  // "W4A16 KV-fp8" style: "weights int4, activations bf16, KV fp8"
};

// All three in one format ("bf16" = the usual unquantized serving).
Precisions uniform_precisions(const std::string& name);

// Throws naming the device and the formats it lacks a peak for.
void require_peaks(const Precisions& p, const DeviceSpec& device);

}  // namespace simt::cost
