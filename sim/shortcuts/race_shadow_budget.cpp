#include "sim/shortcuts/race_shadow_budget.hpp"

#include "sim/exec/executor.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace simt {

namespace {

constexpr std::uint64_t kShadowPerByte = 4;  // 16 bytes per 4-byte word

double gib(std::uint64_t bytes) { return double(bytes) / double(1ull << 30); }

}  // namespace

std::uint64_t usable_memory_bytes() {
  std::uint64_t bytes = std::uint64_t(sysconf(_SC_PHYS_PAGES)) * std::uint64_t(sysconf(_SC_PAGE_SIZE));
  if (std::FILE* f = std::fopen("/sys/fs/cgroup/memory.max", "r")) {  // "max" when unlimited
    unsigned long long limit = 0;
    if (std::fscanf(f, "%llu", &limit) == 1 && limit > 0) bytes = std::min<std::uint64_t>(bytes, limit);
    std::fclose(f);
  }
  return bytes;
}

bool race_shadow_too_big() {
  if (!checks().races || runtime_options().races == RaceChecks::always) return false;
  static const std::uint64_t usable = usable_memory_bytes();
  return GlobalMemory::instance().bytes_in_use() * kShadowPerByte > usable / 2;
}

void fit_race_shadow(std::uint64_t launch_number) {
  if (!race_shadow_too_big()) return;
  static const std::uint64_t usable = usable_memory_bytes();
  const std::uint64_t in_use = GlobalMemory::instance().bytes_in_use();
  const std::uint64_t shadow = in_use * kShadowPerByte;
  checks().races = false;
  fmt::print(stderr,
             "simt: race checks off from launch {} on: the {:.1f} GiB of device memory in use could need {:.1f} GiB "
             "of race-check shadow (16 bytes a 4-byte word), more than half of this machine's {:.1f} GiB; bounds, "
             "alignment, barrier and uninitialised-read checks stay on (SIMT_OPTIONS=races=always keeps race checks on)\n",
             launch_number, gib(in_use), gib(shadow), gib(usable));
}

}  // namespace simt
