#include "sim/exec/repeat_launch.hpp"

#include "sim/memory/global_memory.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace simt {

namespace {

bool same_dim(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

RepeatMode mode_from_env() {
  const char* v = std::getenv("SIMT_SKIP_REPEATS");
  if (v && std::strcmp(v, "0") == 0) return RepeatMode::Never;
  if (v && std::strcmp(v, "all") == 0) return RepeatMode::All;
  return RepeatMode::Pure;
}

}  // namespace

bool LaunchKey::operator==(const LaunchKey& o) const {
  return kernel == o.kernel && same_dim(grid, o.grid) && same_dim(block, o.block) &&
         dynamic_shared == o.dynamic_shared && stream == o.stream && args == o.args;
}

RepeatLaunches& RepeatLaunches::instance() {
  static RepeatLaunches r = [] {
    RepeatLaunches x;
    x.mode_ = mode_from_env();
    return x;
  }();
  return r;
}

void RepeatLaunches::set_mode(RepeatMode m) {
  mode_ = m;
  if (m == RepeatMode::Never) kept_.clear();
}

void RepeatLaunches::disable_for_managed_memory() {
  managed_ = true;
  kept_.clear();
}

std::string record_impurity(const LaunchRecord& r) {
  const Counters& c = r.totals;
  return c[Counter::GlobalAtomRequests] || c[Counter::SharedAtomInst] ? "uses atomics" : "";
}

std::optional<RepeatMatch> RepeatLaunches::repeat_of(const LaunchKey& key) {
  if (mode_ == RepeatMode::Never || managed_) return std::nullopt;
  auto it = std::find_if(kept_.rbegin(), kept_.rend(), [&](const Kept& k) { return k.key == key; });
  if (it == kept_.rend()) return std::nullopt;
  if (it->clean && it->impure.empty()) return RepeatMatch{it->record_index, true, {}};
  if (mode_ == RepeatMode::All && it->clean) return RepeatMatch{it->record_index, false, it->impure};
  return std::nullopt;
}

void RepeatLaunches::executed(std::optional<LaunchKey> key, std::size_t record_index, bool clean, std::string impure,
                              LaunchFootprint footprint, bool all_writes_seen) {
  std::erase_if(kept_, [&](const Kept& k) {
    return !all_writes_seen || !footprint.known || !k.footprint.known ||
           overlaps(footprint.written, k.footprint.touched) || (key && k.key == *key);
  });
  if (!key || mode_ == RepeatMode::Never) return;
  if (impure.empty() && !footprint.known) impure = "touches memory too scattered to keep track of";
  if (impure.empty() && footprint.read_then_written) impure = "reads what it writes";
  kept_.push_back(Kept{std::move(*key), record_index, clean, std::move(impure), std::move(footprint)});
  if (kept_.size() > kKept) kept_.erase(kept_.begin());
}

// A write into sectors a kept launch touched (read or written) may change what it
// reads, or undo what it wrote: its next identical launch must run.
void RepeatLaunches::host_wrote(const void* p, std::size_t bytes) {
  if (kept_.empty() || bytes == 0) return;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (!GlobalMemory::instance().contains(addr)) return;  // host memory: not the kernel's
  std::erase_if(kept_, [&](const Kept& k) { return !k.footprint.known || overlaps_bytes(k.footprint.touched, addr, bytes); });
}

}  // namespace simt
