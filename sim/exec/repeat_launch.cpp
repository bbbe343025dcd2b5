#include "sim/exec/repeat_launch.hpp"

#include "sim/memory/global_memory.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace simt {

namespace {

bool same_dim(const dim3& a, const dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// The sector shadow holds (serial << 2) | flags: 1 = read first, 2 = written
// (sim/count/dram_estimate.cpp). A read that came before a write leaves 3.
constexpr std::uint32_t kRead = 1, kWritten = 2;

bool sectors_match(std::uintptr_t begin, std::size_t bytes, std::uint32_t serial, std::uint32_t flags_mask,
                   std::uint32_t flags_want) {
  GlobalMemory& gm = GlobalMemory::instance();
  const std::uint32_t* s = gm.sector_shadow(begin & ~std::uintptr_t(31));
  const std::uint32_t* end = gm.sector_shadow((begin + bytes + 31) & ~std::uintptr_t(31));
  for (; s < end; ++s) {
    const std::uint32_t v = std::atomic_ref<const std::uint32_t>(*s).load(std::memory_order_relaxed);
    if ((v >> 2) == (serial & 0x3FFFFFFFu) && (v & flags_mask) == flags_want) return true;
  }
  return false;
}

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
  if (m == RepeatMode::Never) candidate_.reset();
}

void RepeatLaunches::disable_for_managed_memory() {
  managed_ = true;
  candidate_.reset();
}

bool record_allows_repeat(const LaunchRecord& r) {
  const Counters& c = r.totals;
  return r.error == 0 && !r.printed && c[Counter::GlobalAtomRequests] == 0 && c[Counter::SharedAtomInst] == 0;
}

bool launch_read_what_it_wrote(std::uint32_t serial) {
  for (auto [base, size] : GlobalMemory::instance().live_ranges())
    if (sectors_match(base, size, serial, kRead | kWritten, kRead | kWritten)) return true;
  return false;
}

// Decided once per candidate, when a second identical launch first asks: one pass
// over the sector shadow of live memory (an eighth of its size).
bool RepeatLaunches::pure(Candidate& c) const {
  if (c.purity == Purity::Unknown)
    c.purity = c.may_repeat && !launch_read_what_it_wrote(c.serial) ? Purity::Pure : Purity::Impure;
  return c.purity == Purity::Pure;
}

std::optional<RepeatMatch> RepeatLaunches::repeat_of(const LaunchKey& key) {
  if (mode_ == RepeatMode::Never || managed_ || !candidate_ || !(candidate_->key == key)) return std::nullopt;
  if (pure(*candidate_)) return RepeatMatch{candidate_->record_index, true};
  if (mode_ == RepeatMode::All && candidate_->clean) return RepeatMatch{candidate_->record_index, false};
  return std::nullopt;
}

void RepeatLaunches::executed(LaunchKey key, std::size_t record_index, std::uint32_t serial, bool clean,
                              bool may_repeat) {
  candidate_ = Candidate{std::move(key), record_index, serial, clean, may_repeat && clean, Purity::Unknown};
}

// A write into sectors the candidate touched (read or written) may change what
// it reads, or undo what it wrote: the next identical launch must run.
void RepeatLaunches::host_wrote(const void* p, std::size_t bytes) {
  if (!candidate_ || bytes == 0) return;
  GlobalMemory& gm = GlobalMemory::instance();
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  if (!gm.contains(addr)) return;  // host memory: not the kernel's
  if (sectors_match(addr, bytes, candidate_->serial, 0, 0)) candidate_.reset();
}

}  // namespace simt
