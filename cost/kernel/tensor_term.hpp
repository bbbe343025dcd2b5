// The tensor-core term of the kernel time model: FLOPs that library GEMMs run on
// the tensor cores (simt__tensor_{tf32,16bit}_flops.sum, sim/libs/gemm_launch.cpp)
// at the device's dense tensor peak for that input precision (cost/catalog/devices.json).
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/kernel/kernel_counters.hpp"
#include "cost/kernel/kernel_terms.hpp"

#include <optional>

namespace simt::cost {

// None when the launch has no tensor-core FLOPs. Throws std::invalid_argument
// naming the device when it publishes no tensor peak for a precision used.
std::optional<TimeTerm> tensor_term(const DeviceSpec& d, const KernelCounters& c);

}  // namespace simt::cost
