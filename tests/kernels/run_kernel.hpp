// Runs a registered kernel the way `simt run` does: defaults plus overrides,
// the host driver, then the CPU reference, keeping every launch's counters.
#pragma once
#include "kernels/harness.hpp"
#include "sim/shortcuts/launch.hpp"
#include "sim/state/launch_record.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

struct KernelRun {
  simt::kernels::Outputs outputs;
  simt::kernels::Check check;
  std::vector<simt::LaunchRecord> launches;
  double seconds = 0;  // wall time of the host driver (all launches, counting on)
  std::uint64_t total(simt::Counter c, std::size_t launch = 0) const { return launches.at(launch).totals[c]; }
  // Average active lanes per warp-level instruction (of those simtlab counts).
  double active_lanes(std::size_t launch = 0) const {
    return double(total(simt::Counter::ThreadInst, launch)) / double(total(simt::Counter::WarpInst, launch));
  }
};

inline KernelRun run_kernel(const std::string& name, std::map<std::string, std::string> given = {}) {
  const simt::kernels::KernelSpec& spec = simt::kernels::find_kernel(name);
  const simt::kernels::Params params = simt::kernels::with_defaults(spec, std::move(given));
  simt::clear_launch_records();
  KernelRun r;
  const auto start = std::chrono::steady_clock::now();
  r.outputs = spec.run(params);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.launches = simt::launch_records();
  r.check = spec.check(params, r.outputs);
  return r;
}

// Default-parameter runs are deterministic and the slowest ones, so each is
// run once per test process and shared by the test cases that inspect it.
inline const KernelRun& run_defaults(const std::string& name) {
  static std::map<std::string, KernelRun> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, run_kernel(name)).first;
  return it->second;
}

// The kernel ran without a diagnostic and matched its reference.
inline void require_clean_pass(const KernelRun& r) {
  REQUIRE_FALSE(r.launches.empty());
  for (const simt::LaunchRecord& l : r.launches) {
    INFO("launch of " << l.kernel);
    CHECK(l.error == 0);
    CHECK(l.diagnostics.empty());
  }
  INFO(r.check.detail);
  CHECK(r.check.ok);
}
