// The roofline: time = max(FLOPs / peak, bytes / bandwidth), with the binding
// term named and the inputs kept so the result can explain itself.
#pragma once
#include "cost/catalog.hpp"

#include <string>

namespace simt::cost {

struct RooflineInput {
  double flops = 0;
  double dram_bytes = 0;         // HBM traffic
  std::string precision = "fp32";  // key into DeviceSpec::peak
};

struct RooflineResult {
  double compute_s = 0;
  double memory_s = 0;
  double time_s = 0;           // max of the two
  std::string bound;           // "compute" or "memory"
  double intensity = 0;        // FLOP/byte
  double ridge = 0;            // FLOP/byte where the two roofs meet
  double attainable_flops = 0; // FLOP/s
  double peak_flops = 0;
  double bandwidth = 0;
  std::string explanation;     // formula with values plugged in and sources
};

RooflineResult roofline(const DeviceSpec& device, const RooflineInput& in);

}  // namespace simt::cost
