// CUDA's answers to a launch it cannot run, and the error a failed launch returns.
#include "sim/exec/launch_checks.hpp"

#include "sim/types/cuda_errors.hpp"
#include "sim/exec/executor.hpp"
#include "util/occupancy.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>

#include <algorithm>

namespace simt {

namespace {

std::mutex g_limits_mutex;
std::map<const void*, std::size_t> g_dynamic_shared_limits;

}  // namespace

void set_dynamic_shared_limit(const void* kernel_fn, std::size_t bytes) {
  std::lock_guard lock(g_limits_mutex);
  g_dynamic_shared_limits[kernel_fn] = bytes;
}

std::size_t dynamic_shared_limit(const void* kernel_fn) {
  std::lock_guard lock(g_limits_mutex);
  auto it = g_dynamic_shared_limits.find(kernel_fn);
  return it == g_dynamic_shared_limits.end() ? 0 : it->second;
}

// CUDA's answer to a launch configuration the device cannot run, or "" if fine.
// CUDA 13 answers every one of them with cudaErrorInvalidValue ("invalid argument"),
// where older toolkits said cudaErrorInvalidConfiguration for the grid and block
// cases: measured on the H200 for each check below (tests/cuda/launch_errors_main.cu,
// docs/validation/h200-frontend.md).
std::pair<int, std::string> check_config(const void* fn, const LaunchConfig& c, std::size_t static_shared) {
  const DeviceLimits& d = device_limits();
  const std::size_t shared_limit = std::max<std::size_t>(d.shared_per_block, dynamic_shared_limit(fn));
  constexpr int kInvalidValue = 1;
  if (volume(c.grid) == 0 || volume(c.block) == 0)
    return {kInvalidValue, fmt::format("grid ({},{},{}) or block ({},{},{}) has a zero dimension", c.grid.x,
                                               c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z)};
  if (volume(c.block) > d.max_threads_per_block)
    return {kInvalidValue, fmt::format("block of {} threads exceeds the device limit of {} threads per block",
                                               volume(c.block), d.max_threads_per_block)};
  if (c.block.x > d.max_block_dim_x || c.block.y > d.max_block_dim_y || c.block.z > d.max_block_dim_z)
    return {kInvalidValue, fmt::format("block ({},{},{}) exceeds the device's per-dimension limits ({},{},{})",
                                               c.block.x, c.block.y, c.block.z, d.max_block_dim_x, d.max_block_dim_y,
                                               d.max_block_dim_z)};
  if (c.grid.x > d.max_grid_dim_x || c.grid.y > d.max_grid_dim_y || c.grid.z > d.max_grid_dim_z)
    return {kInvalidValue, fmt::format("grid ({},{},{}) exceeds the device's limits ({},{},{})", c.grid.x,
                                               c.grid.y, c.grid.z, d.max_grid_dim_x, d.max_grid_dim_y, d.max_grid_dim_z)};
  if (c.dynamic_shared + static_shared > shared_limit)
    return {kInvalidValue,
            fmt::format("{} bytes of shared memory per block ({} dynamic + {} static) exceed the {} limit of {} bytes{}",
                        c.dynamic_shared + static_shared, c.dynamic_shared, static_shared, d.name, shared_limit,
                        shared_limit < d.shared_per_block_optin
                            ? fmt::format(" (up to {} with cudaFuncSetAttribute)", d.shared_per_block_optin)
                            : "")};
  return {0, ""};
}

int resident_blocks_per_sm(unsigned threads_per_block, std::size_t shared_per_block, const char** limiter) {
  const DeviceLimits& d = device_limits();
  const ResidentBlocks r = simt::resident_blocks_per_sm(
      (threads_per_block + 31) / 32, double(shared_per_block), int(d.max_threads_per_sm / 32),
      max_blocks_per_sm(d.cc_major, d.cc_minor), double(d.shared_per_sm), shared_reserved_per_block(d.cc_major));
  if (limiter) *limiter = r.limiter;
  return r.blocks;
}

// CUDA refuses a cooperative launch whose blocks cannot all be resident at once,
// before running anything: cudaErrorCooperativeLaunchTooLarge. Registers per thread
// would limit too on the GPU; simtlab does not know them (docs/frontend.md).
std::pair<int, std::string> check_cooperative(const LaunchConfig& c, std::size_t static_shared) {
  const DeviceLimits& d = device_limits();
  const char* limiter = "";
  const std::size_t shared = c.dynamic_shared + static_shared;
  const int per_sm = resident_blocks_per_sm(static_cast<unsigned>(volume(c.block)), shared, &limiter);
  const std::uint64_t most = std::uint64_t(per_sm) * d.sm_count;
  if (volume(c.grid) <= most) return {0, ""};
  return {cudaErrorCooperativeLaunchTooLarge,
          fmt::format("cooperative launch of {} blocks: at most {} can be resident at once on the {} ({} per SM, "
                      "limited by {}, x {} SMs; block of {} threads, {} bytes of shared memory), so grid.sync() "
                      "could never complete",
                      volume(c.grid), most, d.name, per_sm, limiter, d.sm_count, volume(c.block), shared)};
}

int error_code_for(DiagKind k) {
  switch (k) {
    case DiagKind::OutOfBoundsGlobal: case DiagKind::OutOfBoundsShared: case DiagKind::OutOfBoundsLocal:
    case DiagKind::InvalidAddress:
      return cudaErrorIllegalAddress;
    case DiagKind::Misaligned: return cudaErrorMisalignedAddress;
    case DiagKind::DeviceAssert: return cudaErrorAssert;
    default: return cudaErrorLaunchFailure;  // races, barriers, deadlocks: wrong on hardware, stopped here
  }
}

}  // namespace simt
