// Skipping identical repeated launches (docs/exec.md, 'Repeated launches').
// Benchmarks launch one kernel hundreds of times on the same buffers, or a few
// kernels in turn (a residual kernel, then a layernorm); executing every launch would
// take hours. A launch may be skipped, its counters and time taken from an earlier
// one, when re-running it cannot change memory:
//   - it is identical to one of the last few launches executed (same kernel, grid,
//     block, dynamic shared bytes, stream and argument bytes);
//   - that launch ran without error, printed nothing, used no atomics, ran with the
//     race checks on (so no two blocks raced on a word), and read no 32-byte sector
//     that it also wrote afterwards (an in-place `x[i] += 1` does);
//   - since then nothing wrote a sector that launch read or wrote: no launch in
//     between (their written sectors are known, sim/shortcuts/launch_footprint.hpp), no
//     deferred one, no cuBLAS product, cudaMemcpy or cudaMemset into them; none of
//     them was freed (and allocated again), no __constant__ symbol written, and the
//     program has no managed memory (the host may write it directly).
// Then its outputs are a function of inputs nobody changed, and its outputs are still
// in place: running it again would write the same values. A clean repeat of a launch
// the compiler pass built that fails the rest (it changes memory) is deferred
// instead (sim/shortcuts/deferred_launches.hpp); anything else runs.
#pragma once
#include "sim/types/vector_types.hpp"
#include "sim/shortcuts/launch_footprint.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/options/options.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simt {

struct LaunchKey {
  const void* kernel = nullptr;
  dim3 grid, block;
  std::size_t dynamic_shared = 0;
  const void* stream = nullptr;
  std::vector<unsigned char> args;  // the argument values' bytes, in order
  bool operator==(const LaunchKey& o) const;
};

// Which repeats are skipped: none (`simt exec --no-skip-repeats`, skip_repeats=none);
// those that cannot change memory (skip_repeats=pure); those, and the rest deferred
// until something reads what they write (the default: Defer,
// sim/shortcuts/deferred_launches.hpp); or also those that change memory, never run
// (`--skip-all-repeats`, skip_repeats=all: from the first such skip on, device
// memory is not what a GPU would hold, and the report says so).
enum class RepeatMode { Never, Pure, Defer, All };
// The mode the skip_repeats option asks for (Pure under `simt validate`).
RepeatMode repeat_mode(SkipRepeats skip);

struct RepeatMatch {
  std::size_t record_index = 0;
  bool exact = true;  // false: the launch changes memory and was skipped anyway (RepeatMode::All)
  bool defer = false; // it changes memory: queue it (RepeatMode::Defer), its sectors those of `footprint`
  std::string why;    // when not exact or deferred: why re-running it could change memory
  LaunchFootprint footprint;
};

class RepeatLaunches {
 public:
  static RepeatLaunches& instance();

  void set_mode(RepeatMode m);
  RepeatMode mode() const { return mode_; }

  // The launch this one repeats, if it may be skipped or deferred.
  std::optional<RepeatMatch> repeat_of(const LaunchKey& key);
  // A repeat was deferred: to the launches kept, its writes are as good as done.
  void deferred(const LaunchFootprint& footprint);
  // A launch was executed. Its writes change the kept launches they touch (their
  // repeats are no longer exact); with a key it is kept (the oldest of kKept goes). `clean`: no error and no printf; `impure`: a
  // reason its repeats could change memory known from its record (atomics, no race
  // checks), or empty; `all_writes_seen`: the compiler pass built the kernel, so the
  // footprint has every write (otherwise every other kept launch ends).
  void executed(std::optional<LaunchKey> key, std::size_t record_index, bool clean, std::string impure,
                LaunchFootprint footprint, bool all_writes_seen);

  // Device memory [p, p + bytes) was written outside a launch (a copy, a memset, a
  // library product): changes the kept launches that touched it.
  void host_wrote(const void* p, std::size_t bytes);
  // Something whose effect is not bounded (a __constant__ write, a device reset).
  void forget() { kept_.clear(); }
  // cudaFree: a launch that touched these bytes is not a pure repeat, and must run
  // (and fault) unless they are allocated again when it repeats.
  void freed(const void* p, std::size_t bytes);
  // Managed memory: the host may write device memory without a call we see.
  void disable_for_managed_memory();

  // The least recently launched or repeated goes. Enough for a benchmark that first
  // validates every block size of a few kernels and then times each size again (llm.c:
  // 3 kernels x 6 sizes): the timed launch is then a repeat of its validation launch.
  static constexpr std::size_t kKept = 32;

 private:
  struct Kept {
    LaunchKey key;
    std::size_t record_index = 0;
    bool clean = false;  // ran without error and printed nothing
    std::string impure;  // why a repeat could change memory; empty: it cannot
    LaunchFootprint footprint;
    bool all_writes_seen = false;  // the compiler pass built it: its footprint has every write
    bool unchanged = true;  // nothing wrote its sectors since it ran: a pure repeat is exact
    bool freed_since = false;  // some of its sectors were freed since it ran
  };
  void changed_by(const SectorRuns& written);

  RepeatMode mode_ = RepeatMode::Defer;
  bool managed_ = false;
  std::vector<Kept> kept_;  // least recently launched or repeated first
};

// Why the launch's own record rules out an exact repeat: "uses atomics", or empty.
std::string record_impurity(const LaunchRecord& r);

}  // namespace simt
