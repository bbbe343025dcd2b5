// The simulated device: the one description the simulator, its runtime
// (cudaGetDeviceProperties, cudaDeviceGetAttribute) and launch checks read. It is
// filled from the cost catalog by name (timing/simulated_device.hpp, the device
// option); the simulator itself knows nothing of the catalog. Defaults are the
// H200's (sm_90).
#pragma once
#include <cstdint>
#include <string>

namespace simt {

struct DeviceLimits {
  std::string name = "H200";
  int cc_major = 9, cc_minor = 0;  // compute capability
  unsigned sm_count = 132;
  unsigned max_threads_per_block = 1024;
  unsigned max_threads_per_sm = 2048;
  unsigned registers_per_sm = 65536;
  unsigned max_block_dim_x = 1024, max_block_dim_y = 1024, max_block_dim_z = 64;
  std::uint64_t max_grid_dim_x = 2147483647ull;
  unsigned max_grid_dim_y = 65535, max_grid_dim_z = 65535;
  std::uint64_t shared_per_block = 48 * 1024;          // without opt-in
  std::uint64_t shared_per_block_optin = 227 * 1024;   // cudaFuncSetAttribute limit
  std::uint64_t shared_per_sm = 228 * 1024;
  std::uint64_t l2_bytes = 50ull * 1024 * 1024;
  std::uint64_t global_memory_bytes = 141ull * 1000 * 1000 * 1000;
  unsigned clock_khz = 1980000;  // boost clock
};

}  // namespace simt
