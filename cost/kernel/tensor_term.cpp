#include "cost/kernel/tensor_term.hpp"

#include <fmt/format.h>

namespace simt::cost {

std::optional<TimeTerm> tensor_term(const DeviceSpec& d, const KernelCounters& c) {
  if (c.tensor_tf32_flops <= 0 && c.tensor_16bit_flops <= 0) return std::nullopt;
  TimeTerm t;
  t.name = "tensor";
  t.what = "tensor-core FLOPs";
  t.unit = "FLOP";
  t.amount = c.tensor_tf32_flops + c.tensor_16bit_flops;
  std::string formula, source;
  auto add = [&](double flops, const char* key) {
    if (flops <= 0) return;
    const Sourced& peak = d.peak_for(key);
    t.seconds += flops / peak.value;
    formula += fmt::format("{}{:.4g} FLOP / {:.4g} TFLOP/s ({})", formula.empty() ? "" : " + ", flops, peak.value / 1e12, key);
    source += fmt::format("{}{}: {}{}", source.empty() ? "" : "; ", key, peak.source, peak.note.empty() ? "" : ", " + peak.note);
  };
  add(c.tensor_tf32_flops, "tf32");
  add(c.tensor_16bit_flops, "bf16");  // fp16 and bf16 share the tensor rate on every catalog GPU
  t.formula = formula;
  t.source = source;
  t.detail = "library GEMMs (cuBLAS) at the dense tensor-core peak, FP32 accumulate";
  return t;
}

}  // namespace simt::cost
