// How much memory this machine can still give the process: what the simulator asks
// before it would write more of the simulated device's memory than the host has
// (a multi-GiB cudaMemset to a non-zero value), or copy all of it (snapshots).
// Header-only, as the simulator uses util/ (it links no util library).
#pragma once
#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace simt {

// MemAvailable of /proc/meminfo in bytes; 0 when it cannot be read (not Linux).
inline std::uint64_t available_host_bytes() {
  std::uint64_t available_kb = 0;
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f))
      if (std::sscanf(line, "MemAvailable: %" SCNu64 " kB", &available_kb) == 1) break;
    std::fclose(f);
  }
  return available_kb * 1024;
}

}  // namespace simt
