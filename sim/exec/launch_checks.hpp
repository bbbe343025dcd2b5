// Launch configurations the device refuses, and the cudaError_t of a failed launch.
#pragma once
#include "sim/state/diagnostic.hpp"
#include "sim/exec/executor.hpp"

#include <string>
#include <utility>

namespace simt {

// CUDA's answer (cudaError_t value and message) to a launch configuration the
// device cannot run, or {0, ""} if it can.
std::pair<int, std::string> check_config(const void* fn, const LaunchConfig& c, std::size_t static_shared);
// A cooperative launch's co-residency check: cudaErrorCooperativeLaunchTooLarge (720)
// when the grid has more blocks than the device's SMs hold at once, or {0, ""}.
std::pair<int, std::string> check_cooperative(const LaunchConfig& c, std::size_t static_shared);
// Blocks of this shape one SM holds at once (threads, shared memory, blocks per SM;
// registers are not known): cudaOccupancyMaxActiveBlocksPerMultiprocessor.
int resident_blocks_per_sm(unsigned threads_per_block, std::size_t shared_per_block, const char** limiter = nullptr);
int error_code_for(DiagKind k);
// cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes): the
// kernel's opt-in limit on dynamic shared memory (0 until set).
void set_dynamic_shared_limit(const void* kernel_fn, std::size_t bytes);
std::size_t dynamic_shared_limit(const void* kernel_fn);

}  // namespace simt
