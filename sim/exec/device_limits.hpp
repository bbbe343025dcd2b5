// The limits of the simulated device that change what a launch may do. The CLI
// fills these from the cost catalog (cost/devices.json); the simulator itself
// knows nothing of the catalog. Defaults are the H100/H200 (sm_90) values.
#pragma once
#include <cstdint>
#include <string>

namespace simt {

struct DeviceLimits {
  std::string name = "H200";
  unsigned max_threads_per_block = 1024;
  unsigned max_block_dim_x = 1024, max_block_dim_y = 1024, max_block_dim_z = 64;
  std::uint64_t max_grid_dim_x = 2147483647ull;
  unsigned max_grid_dim_y = 65535, max_grid_dim_z = 65535;
  std::uint64_t shared_per_block = 48 * 1024;          // without opt-in
  std::uint64_t shared_per_block_optin = 227 * 1024;   // cudaFuncSetAttribute limit
  std::uint64_t l2_bytes = 50ull * 1024 * 1024;
  std::uint64_t global_memory_bytes = 141ull * 1000 * 1000 * 1000;
};

}  // namespace simt
