// A copy of every live device allocation, taken before a launch that may have to be
// undone (a launch run ahead of deferred work, sim/shortcuts/deferred_launches.hpp): its
// written sectors are put back from the copy afterwards.
#pragma once
#include "sim/shortcuts/launch_footprint.hpp"

#include <cstdint>
#include <vector>

namespace simt {

class MemorySnapshot {
 public:
  static MemorySnapshot take();
  // Puts back the bytes of these sectors as they were when the copy was taken.
  void restore(const SectorRuns& sectors) const;
  void restore_all() const;
  std::uint64_t bytes() const { return bytes_; }

 private:
  struct Piece {
    std::uintptr_t base = 0;  // device address
    std::vector<unsigned char> bytes;
  };
  std::vector<Piece> pieces_;  // in address order
  std::uint64_t bytes_ = 0;
};

}  // namespace simt
