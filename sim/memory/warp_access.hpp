// One warp-level memory instruction: the site, what kind of access, and the
// address each active lane asked for.
#pragma once
#include "sim/types/events.hpp"

#include <cstdint>

namespace simt {

struct WarpAccess {
  Site site;
  MemOp op;
  Space space;
  std::uint32_t size;
  std::uint32_t active = 0;          // lane mask
  std::uint64_t addr[32];
};

}  // namespace simt
