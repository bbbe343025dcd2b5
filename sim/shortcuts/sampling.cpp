#include "sim/shortcuts/sampling.hpp"

#include "sim/exec/executor.hpp"
#include "sim/exec/plain_twin.hpp"
#include "sim/count/dram_estimate.hpp"
#include "sim/exec/worker.hpp"
#include "sim/shortcuts/sample_spread.hpp"
#include "sim/exec/worker_pool.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/options/runtime_options.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>

namespace simt {

namespace {


constexpr double kSampleShare = 0.1;  // refine the counted sample while it has taken less than this share of the budget
// ... and, while the counted blocks' spread puts the scaled counters further than this
// from the exact ones (one standard error, relative), while it has taken less than
// kSpreadShare of the budget.
constexpr double kTargetError = 0.01;
constexpr double kSpreadShare = 0.5;

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::uint64_t scaled(std::uint64_t v, double factor) { return static_cast<std::uint64_t>(std::llround(v * factor)); }

void add_scaled(Counters& to, const Counters& from, double factor) {
  for (std::size_t i = 0; i < to.v.size(); ++i) to.v[i] += scaled(from.v[i], factor);
}

}  // namespace


// `simt validate` compares counters with ncu: they must be exact.
bool sampling_enabled() { return !runtime_options().exact && runtime_options().validate_digests.empty(); }

double sample_budget_seconds() { return runtime_options().sample_budget; }

namespace {

// The first counted blocks run at least this long before a projection: a second
// (sample_probe, smaller for tests that sample small launches).
double probe_seconds() { return runtime_options().sample_probe; }

}  // namespace

namespace {

// The counted blocks' counters, each block standing for `factor` blocks of the grid,
// except the DRAM estimate: it counts each sector once a launch, so scaling would
// multiply sectors that blocks share (llm.c attention's query-key kernel: 21-fold).
// The uncounted blocks feed it themselves (simt_cuda/hooks.h,
// __simt_translate_dram_inline): the sample's and theirs together are every block's.
void scale_to_grid(LaunchRecord& rec, double factor, const Counters& uncounted) {
  const Counters sample = rec.totals;
  const SiteCounters sample_sites = std::move(rec.per_site);
  rec.totals = {};
  rec.per_site.clear();
  auto scale = [&](Counters& to, const Counters& from) {
    add_scaled(to, from, factor);
    for (Counter once : kSectorEstimateCounters) to[once] = from[once];
  };
  scale(rec.totals, sample);
  for (const auto& [site, c] : sample_sites) scale(rec.per_site[site], c);
  for (Counter once : kSectorEstimateCounters) rec.totals[once] += uncounted[once];
}

// Whether to count the middles of windows a third as wide, which costs about twice the
// time so far: while the first second lasts or the sample has taken a tenth of the
// budget; and while its blocks differ so much that its estimate may be more than 1% off
// (few heavy blocks of unequal work: attention's value kernel, 2 of 192 blocks by the
// first rule) and it has taken less than half the budget.
bool grow_sample(double elapsed, double error, double budget) {
  if (elapsed < probe_seconds() || 3 * elapsed <= kSampleShare * budget) return true;
  return error > kTargetError && 3 * elapsed <= kSpreadShare * budget;
}

}  // namespace

// Counted first: the middle block of each window of s blocks, s a power of 3 that
// gives each worker one to three; then, while the time allows, the middles of
// windows a third as wide (which include the first ones). Middles spread the sample
// over the grid and keep it unbiased where work grows along it (a causal attention's
// rows). Then the projected exact time decides: the rest counted, or the rest
// through the twin.
void run_blocks(LaunchContext& launch, unsigned n, LaunchRecord& rec) {
  const std::uint64_t total = launch.nblocks;
  using Kind = BlockSequence::Kind;
  if (!sampling_enabled() || !has_plain_twin(launch.kernel_fn)) {
    run_part(launch, n, {Kind::All, 1, total}, false, rec.totals, rec.per_site);
    return;
  }
  // One to three blocks per worker at first: a grid of few heavy blocks (llm.c's naive
  // flash attention: 96 blocks of 10^8 operations) must not spend minutes on the probe.
  std::uint64_t s = 1;
  while (total / (3 * s) >= std::uint64_t(n)) s *= 3;
  const Clock::time_point start = Clock::now();
  std::vector<BlockWork> work;
  run_part(launch, n, {Kind::Middles, s, middles(total, s)}, false, rec.totals, rec.per_site, &work);
  const double budget = sample_budget_seconds();
  for (;;) {
    if (launch.failed.load()) return;
    const std::uint64_t counted = middles(total, s);
    const double elapsed = since(start), per_block = elapsed / double(counted);
    const BlockSequence rest{Kind::NotMiddles, s, total - counted};
    if (s == 1) return;
    if (per_block * double(total) <= budget) {  // exact within the budget
      run_part(launch, n, rest, false, rec.totals, rec.per_site);
      return;
    }
    const double error = relative_error(work, total);
    if (grow_sample(elapsed, error, budget)) {
      s /= 3;
      run_part(launch, n, {Kind::NewMiddles, s, middles(total, s) - counted}, false, rec.totals, rec.per_site,
               &work);
      continue;
    }
    Counters uncounted;  // a plain block's counts are dropped, but for its DRAM sectors
    SiteCounters uncounted_sites;
    run_part(launch, n, rest, true, uncounted, uncounted_sites);
    scale_to_grid(rec, double(total) / double(counted), uncounted);
    rec.counted_blocks = counted;
    rec.sample_error = error;
    return;
  }
}

void widen_to_allocations(LaunchFootprint& fp) {
  if (!fp.known) return;
  const GlobalMemory& gm = GlobalMemory::instance();
  // Per allocation (by base sector): sectors touched and written by the counted blocks.
  struct Use {
    std::uint64_t begin = 0, end = 0, touched = 0, written = 0;
  };
  std::map<std::uint64_t, Use> uses;
  auto allocation_runs = [&](const SectorRuns& runs, bool written) {
    for (const SectorRun& r : runs)
      for (std::uint64_t s = r.begin; s < r.end;) {
        const Allocation* a = gm.find(s * 32, 1);
        if (!a) {  // not in an allocation (cannot happen for a counted access): keep the run as it is
          Use& u = uses[s];
          u.begin = s, u.end = r.end;
          (written ? u.written : u.touched) += r.end - s;
          break;
        }
        Use& u = uses[a->base / 32];
        u.begin = a->base / 32;
        u.end = (a->base + a->size + 31) / 32;
        const std::uint64_t upto = std::min(r.end, u.end);
        (written ? u.written : u.touched) += upto - s;
        s = upto;
      }
  };
  allocation_runs(fp.touched, false);
  allocation_runs(fp.written, true);
  SectorRuns touched, written;
  for (const auto& [base, u] : uses) {
    touched.push_back({u.begin, u.end});
    if (u.written) written.push_back({u.begin, u.end});
    // Sectors read and not written, in an array it writes elsewhere: other blocks may
    // read what these write.
    if (u.written && u.touched > u.written) fp.read_then_written = true;
  }
  fp.touched = merge_runs(touched, {});
  fp.written = merge_runs(written, {});
}

}  // namespace simt

