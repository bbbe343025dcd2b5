// `simt validate`'s verdicts: device memory after each launch (digests written by
// both sides, sim/report/launch_digest.hpp) and counters (the simulator's JSON
// against Nsight Compute's CSV), launch by launch.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simt::cli {

struct AllocationDigest {
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;
  std::string hash;
};

struct LaunchDigest {
  int error = 0;
  std::string kernel;
  std::vector<AllocationDigest> allocations;
};

// Throws std::runtime_error naming the file and line of anything malformed.
std::vector<LaunchDigest> parse_digests(const std::string& text, const std::string& file);

// One row of Nsight Compute's CSV: a launch's metrics by name.
using NcuLaunch = std::map<std::string, double>;
std::vector<NcuLaunch> parse_ncu_csv(const std::string& text);

struct LaunchVerdict {
  std::string kernel;
  bool memory_same = true;
  std::string memory_detail;  // "3 allocations equal" or what differs
  int counters_compared = 0, counters_equal = 0;
  std::string counter_detail;  // the first differing metric, sim vs GPU
  bool same() const { return memory_same && counters_equal == counters_compared; }
};

// Memory: every launch's live allocations equal in size and content.
std::vector<LaunchVerdict> compare_memory(const std::vector<LaunchDigest>& sim, const std::vector<LaunchDigest>& gpu);
// Adds the counters of `metrics` (the simulator's exact ones) to each verdict.
void compare_counters(std::vector<LaunchVerdict>& verdicts, const nlohmann::json& sim_launches,
                      const std::vector<NcuLaunch>& ncu, const std::vector<std::string>& metrics);

}  // namespace simt::cli
