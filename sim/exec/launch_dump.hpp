// The bytes of device memory after each launch, for `simt validate`'s element-wise
// comparison: when the option validate_dump_dir names a directory, after launch N every live
// allocation whose digest changed since it was last dumped (or that was never dumped)
// is written to DIR/launch-N-alloc-ID.bin. An allocation's bytes after any launch are
// therefore in its newest dump at or before that launch; the comparer
// (cli/validate_compare.cpp) checks them against the digest of that launch.
//
// Bounded: an allocation larger than validate_dump_max_bytes (default 256 MiB) is
// not dumped, and dumping stops once validate_dump_budget bytes (default 4 GiB)
// have been written; each such skip is a line in DIR/dump-notes.txt.
//
// Header-only and free of simtlab's other headers but the options table (itself
// header-only, C++17): both digest writers include it,
// the simulator's (sim/exec/launch_digest.cpp) and the GPU shim built by nvcc on the
// GPU machine (program/gpu_launch_digest.cpp, compiled as C++17).
#pragma once
#include "sim/options/options.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace simt::validate_dump {

inline std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

class LaunchDump {
 public:
  explicit LaunchDump(const Options& o)
      : dir_(o.validate_dump_dir), max_bytes_(o.validate_dump_max_bytes), budget_(o.validate_dump_budget) {
    if (!dir_.empty()) ::mkdir(dir_.c_str(), 0777);  // the parent exists: the scripts make it
  }
  bool enabled() const { return !dir_.empty(); }

  // Allocation `id` (`bytes` at `data`, digest `hash`) after launch `launch`.
  void allocation(unsigned launch, std::uint64_t id, const unsigned char* data, std::size_t bytes, std::uint64_t hash) {
    if (!enabled()) return;
    auto last = last_.find(id);
    if (last != last_.end() && last->second == hash) return;  // unchanged since its last dump
    if (bytes > max_bytes_) {
      if (last == last_.end() || last->second != kSkipped)
        note(launch, id, bytes, "larger than validate_dump_max_bytes");
      last_[id] = kSkipped;
      return;
    }
    if (written_ + bytes > budget_) {
      if (!over_budget_) note(launch, id, bytes, "validate_dump_budget spent: no more dumps after this");
      over_budget_ = true;
      return;
    }
    const std::string path = dir_ + "/launch-" + std::to_string(launch) + "-alloc-" + std::to_string(id) + ".bin";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return;
    const bool ok = bytes == 0 || std::fwrite(data, 1, bytes, f) == bytes;
    if (std::fclose(f) != 0 || !ok) {
      std::remove(path.c_str());
      note(launch, id, bytes, "could not be written (disk full?)");
      return;
    }
    written_ += bytes;
    last_[id] = hash;
  }

 private:
  static constexpr std::uint64_t kSkipped = 0;  // FNV-1a of real data is practically never 0

  void note(unsigned launch, std::uint64_t id, std::size_t bytes, const char* why) {
    std::FILE* f = std::fopen((dir_ + "/dump-notes.txt").c_str(), "a");
    if (!f) return;
    std::fprintf(f, "launch %u alloc %llu (%zu B) not dumped: %s\n", launch, static_cast<unsigned long long>(id),
                 bytes, why);
    std::fclose(f);
  }

  std::string dir_;
  std::uint64_t max_bytes_, budget_, written_ = 0;
  bool over_budget_ = false;
  std::map<std::uint64_t, std::uint64_t> last_;  // id -> digest when last dumped (kSkipped: over the cap)
};

}  // namespace simt::validate_dump
