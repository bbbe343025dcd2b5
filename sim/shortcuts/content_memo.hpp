// Replaying a launch whose inputs hold the same bytes as when it last ran
// (docs/exec.md, 'Replayed launches').
//
// A repeat that changes memory cannot be skipped (sim/shortcuts/repeat_launch.hpp): llm.c's
// naive flash attention updates its running maxima in place, and its benchmark
// re-initialises them with cudaMemset before each of its hundreds of calls. Yet each
// call starts from the same bytes. A kernel is a function of the memory it reads, so
// when every sector its last run touched holds, byte for byte, what it held before an
// earlier run with the same key, that run's outputs are what this one would write:
// they are written back and its counters reused, instead of executing it.
//
// For a launch key seen before, the sectors its last run touched are hashed (XXH3,
// 128 bits) before it runs. If the hash is the one taken before the run whose outputs
// are kept, those outputs are written back. Otherwise it runs; if it touched no sector
// outside those hashed, its written sectors are kept with the hash for next time.
//
// Only launches whose result follows from the memory they read qualify: no error, no
// printf, built by the compiler pass (every access seen), a known footprint. Atomics
// and races between blocks make the result depend on the order the blocks ran in as
// well; the bytes written back are then those of the earlier run's order, one a GPU
// could take too. The first run of a key is never replayed: one run learns the
// sectors, the next the hash and the outputs.
#pragma once
#include "sim/shortcuts/launch_footprint.hpp"
#include "sim/shortcuts/repeat_launch.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simt {

struct ContentDigest {
  std::uint64_t low = 0, high = 0;
  bool operator==(const ContentDigest&) const = default;
};

// The bytes of these sectors, hashed (through the host mapping).
ContentDigest digest_sectors(const SectorRuns& runs);

struct Replay {
  std::size_t record_index = 0;  // the launch whose outputs were written back (it executed)
  LaunchFootprint footprint;     // the sectors it touched and wrote
  std::string impure;            // why an identical launch could change memory ("reads what it writes")
};

class ContentMemo {
 public:
  static ContentMemo& instance();

  // Has a launch with this key run before, so that its inputs can be hashed?
  bool knows(const LaunchKey& key) const;
  // The sectors hashing this key's inputs reads and replaying it writes: the queue of
  // deferred launches must not write or touch them while that happens.
  LaunchFootprint reach(const LaunchKey& key) const;
  // The hash of the key's inputs as memory holds them now; none when it has no entry,
  // its outputs are too large to keep, or some of its sectors were freed (the launch
  // must run, and fault).
  std::optional<ContentDigest> digest_inputs(const LaunchKey& key);
  // If the outputs of a run whose inputs hashed `before` are kept: writes them back.
  std::optional<Replay> replay(const LaunchKey& key, const ContentDigest& before);
  // A launch with this key ran (record `record_index`, which holds its counters);
  // `before` is the hash of its inputs taken just before it ran, if one was.
  // `eligible`: its result is a function of memory (see above).
  void ran(const LaunchKey& key, std::optional<ContentDigest> before, std::size_t record_index,
           const LaunchFootprint& footprint, bool eligible, std::string impure);
  void forget() { entries_.clear(), kept_bytes_ = 0; }

  static constexpr std::size_t kEntries = 32;
  // Outputs kept at most, over all entries (the least recently used go first).
  static constexpr std::uint64_t kMaxKeptBytes = std::uint64_t(1) << 30;

 private:
  struct Entry {
    LaunchKey key;
    SectorRuns inputs;                    // hashed before each run
    std::optional<ContentDigest> digest;  // of the inputs before the run whose outputs are kept
    LaunchFootprint footprint;            // of that run
    std::vector<unsigned char> outputs;   // its written sectors' bytes after it, in order
    std::size_t record_index = 0;
    std::string impure;
    bool too_large = false;  // its outputs would not fit kMaxKeptBytes / 2: never hashed
  };
  Entry* find(const LaunchKey& key);
  const Entry* find(const LaunchKey& key) const;
  void drop_outputs(Entry& e);
  void erase(Entry* e);
  Entry* to_back(Entry* e);
  void make_room(std::uint64_t bytes, const Entry* keep);

  std::vector<Entry> entries_;  // least recently used first
  std::uint64_t kept_bytes_ = 0;
};

}  // namespace simt
