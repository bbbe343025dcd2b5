#include "sim/shortcuts/repeat_launch.hpp"

#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"

#include <algorithm>

namespace simt {

namespace {

bool same_dim(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

}  // namespace

RepeatMode repeat_mode(SkipRepeats skip) {
  switch (skip) {
    case SkipRepeats::none: return RepeatMode::Never;
    case SkipRepeats::all: return RepeatMode::All;
    case SkipRepeats::pure: return RepeatMode::Pure;
    case SkipRepeats::defer: break;
  }
  // `simt validate` digests memory after every launch: a deferred one would show
  // memory it has not written yet.
  return runtime_options().validate_digests.empty() ? RepeatMode::Defer : RepeatMode::Pure;
}

bool LaunchKey::operator==(const LaunchKey& o) const {
  return kernel == o.kernel && same_dim(grid, o.grid) && same_dim(block, o.block) &&
         dynamic_shared == o.dynamic_shared && stream == o.stream && args == o.args;
}

RepeatLaunches& RepeatLaunches::instance() {
  static RepeatLaunches r = [] {
    RepeatLaunches x;
    x.mode_ = repeat_mode(runtime_options().skip_repeats);
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
  return c[Counter::GlobalAtomRequests] || c[Counter::GlobalRedRequests] || c[Counter::SharedAtomInst] ? "uses atomics" : "";
}

namespace {
// Page-locked host memory: the host reads and writes it without a call, so a launch
// that touches it (or may: a footprint too scattered to keep) is never a repeat.
bool touches_host_memory(const LaunchFootprint& f) {
  const auto ranges = GlobalMemory::instance().host_ranges();
  if (ranges.empty()) return false;
  if (!f.known) return true;
  return std::any_of(ranges.begin(), ranges.end(),
                     [&](const auto& r) { return overlaps_bytes(f.touched, r.first, r.second); });
}
}  // namespace

std::optional<RepeatMatch> RepeatLaunches::repeat_of(const LaunchKey& key) {
  if (mode_ == RepeatMode::Never || managed_) return std::nullopt;
  auto found = std::find_if(kept_.rbegin(), kept_.rend(), [&](const Kept& k) { return k.key == key; });
  if (found == kept_.rend() || !found->clean) return std::nullopt;
  if (found->freed_since && !sectors_live(found->footprint.touched)) return std::nullopt;
  found->freed_since = false;
  // The most recently repeated goes last, so a cycle of launches repeated in turn
  // (a product, then a bias added to its output) keeps every member while a new
  // launch takes the place of the one least recently seen.
  std::rotate(std::prev(found.base()), found.base(), kept_.end());
  const auto it = std::prev(kept_.end());
  if (it->unchanged && it->impure.empty()) return RepeatMatch{it->record_index, true, false, {}, {}};
  const std::string why = it->impure.empty() ? "reads memory written since it ran" : it->impure;
  // --skip-all-repeats still runs a repeat whose sectors something else wrote since:
  // a validation after it would read stale values.
  if (mode_ == RepeatMode::All && it->unchanged) return RepeatMatch{it->record_index, false, false, why, {}};
  if (mode_ == RepeatMode::Defer && it->footprint.known && it->all_writes_seen) return RepeatMatch{it->record_index, true, true, why, it->footprint};
  return std::nullopt;
}

void RepeatLaunches::changed_by(const SectorRuns& written) {
  for (Kept& k : kept_) k.unchanged = k.unchanged && !overlaps(written, k.footprint.touched);
}

void RepeatLaunches::deferred(const LaunchFootprint& footprint) { changed_by(footprint.written); }

void RepeatLaunches::executed(std::optional<LaunchKey> key, std::size_t record_index, bool clean, std::string impure,
                              LaunchFootprint footprint, bool all_writes_seen) {
  if (key) std::erase_if(kept_, [&](const Kept& k) { return k.key == *key; });
  if (!all_writes_seen || !footprint.known)
    for (Kept& k : kept_) k.unchanged = false;
  else
    changed_by(footprint.written);
  if (!key || mode_ == RepeatMode::Never || touches_host_memory(footprint)) return;
  if (impure.empty() && !footprint.known) impure = "touches memory too scattered to keep track of";
  if (impure.empty() && footprint.read_then_written) impure = "reads what it writes";
  kept_.push_back(Kept{std::move(*key), record_index, clean, std::move(impure), std::move(footprint), all_writes_seen});
  if (kept_.size() > kKept) kept_.erase(kept_.begin());
}

// Freed bytes are undefined, and the range may be handed out again (a benchmark's
// per-call temporaries are): a launch that touched them is no longer a pure repeat,
// and one whose sectors are not all allocated again when it repeats must run (and fault).
void RepeatLaunches::freed(const void* p, std::size_t bytes) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  std::erase_if(kept_, [](const Kept& k) { return !k.footprint.known; });
  for (Kept& k : kept_)
    if (overlaps_bytes(k.footprint.touched, addr, bytes)) k.unchanged = false, k.freed_since = true;
}

// A write into sectors a kept launch touched (read or written) may change what it
// reads, or undo what it wrote: its next identical launch is no longer a pure repeat.
void RepeatLaunches::host_wrote(const void* p, std::size_t bytes) {
  if (kept_.empty() || bytes == 0) return;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (!GlobalMemory::instance().contains(addr)) return;  // host memory: not the kernel's
  for (Kept& k : kept_) k.unchanged = k.unchanged && k.footprint.known && !overlaps_bytes(k.footprint.touched, addr, bytes);
}

}  // namespace simt
