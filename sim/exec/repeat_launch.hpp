// Skipping identical repeated launches (docs/exec.md, 'Repeated launches').
// Benchmarks launch one kernel hundreds of times on the same buffers; executing
// every launch would take hours. A launch may be skipped, its counters and time
// taken from the previous one, when re-running it cannot change memory:
//   - it is identical to the launch just before it (same kernel, grid, block,
//     dynamic shared bytes, stream and argument bytes), with no other launch in
//     between;
//   - that previous launch ran without error, printed nothing, used no atomics,
//     ran with the race checks on (so no two blocks raced on a word), and read no
//     32-byte sector that it also wrote afterwards (an in-place `x[i] += 1` does);
//   - since then the host wrote no device memory that launch touched (cudaMemcpy,
//     cudaMemset into its sectors), freed nothing, wrote no __constant__ symbol,
//     and the program has no managed memory (the host may write it directly).
// Then its outputs are a function of inputs it did not change: running it again
// would write the same values. Anything not known for certain runs the launch.
#pragma once
#include "sim/cuda/vector_types.hpp"
#include "sim/report/launch_record.hpp"

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

// Which repeats are skipped: none (`simt exec --no-skip-repeats`, $SIMT_SKIP_REPEATS=0),
// those that cannot change memory (the default), or also those that do
// (`--skip-all-repeats`, $SIMT_SKIP_REPEATS=all: for timing benchmarks of in-place
// or atomic kernels; from the first such skip on, device memory is not what a GPU
// would hold, and the report says so).
enum class RepeatMode { Never, Pure, All };

struct RepeatMatch {
  std::size_t record_index = 0;
  bool exact = true;  // false: the launch changes memory and was skipped anyway (RepeatMode::All)
};

class RepeatLaunches {
 public:
  static RepeatLaunches& instance();

  void set_mode(RepeatMode m);
  RepeatMode mode() const { return mode_; }

  // The launch this one repeats, if it may be skipped.
  std::optional<RepeatMatch> repeat_of(const LaunchKey& key);
  // A launch was executed: it becomes the one the next launch is compared with.
  // `clean`: no error and no printf; `may_repeat`: also record_allows_repeat() and
  // the race checks were on.
  void executed(LaunchKey key, std::size_t record_index, std::uint32_t serial, bool clean, bool may_repeat);

  // The host wrote [p, p + bytes): forgets the candidate if it touched them.
  void host_wrote(const void* p, std::size_t bytes);
  // Something whose effect is not bounded (cudaFree, a __constant__ write).
  void forget() { candidate_.reset(); }
  // Managed memory: the host may write device memory without a call we see.
  void disable_for_managed_memory();

 private:
  enum class Purity { Unknown, Pure, Impure };
  struct Candidate {
    LaunchKey key;
    std::size_t record_index = 0;
    std::uint32_t serial = 0;  // the executor's launch serial: its stamp in the sector shadow
    bool clean = false;       // ran without error and printed nothing
    bool may_repeat = false;  // its record allows it and the race checks were on
    Purity purity = Purity::Unknown;
  };
  bool pure(Candidate& c) const;

  RepeatMode mode_ = RepeatMode::Pure;
  bool managed_ = false;
  std::optional<Candidate> candidate_;
};

// Whether the launch's own record allows a repeat (no error, printf, atomics).
bool record_allows_repeat(const LaunchRecord& r);
// Whether the launch numbered `serial` read a 32-byte sector it also wrote, from
// the DRAM estimate's sector shadow (read-then-write leaves both flags set).
bool launch_read_what_it_wrote(std::uint32_t serial);

}  // namespace simt
