// Launch configurations the device refuses, and the cudaError_t of a failed launch.
#pragma once
#include "sim/check/diagnostic.hpp"
#include "sim/exec/executor.hpp"

#include <string>
#include <utility>

namespace simt {

// CUDA's answer (cudaError_t value and message) to a launch configuration the
// device cannot run, or {0, ""} if it can.
std::pair<int, std::string> check_config(const void* fn, const LaunchConfig& c, std::size_t static_shared);
int error_code_for(DiagKind k);

}  // namespace simt
