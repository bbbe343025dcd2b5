#include "sim/count/shared_patterns.hpp"

#include <bit>

namespace simt {

const SharedPattern& SharedPatternCache::analyse(const WarpAccess& row) {
  const unsigned first = static_cast<unsigned>(std::countr_zero(row.active)) & 31;  // rows are never empty
  const std::uint64_t base = row.addr[first];
  std::int64_t offset[32];
  if (row.active == ~0u) {  // the usual full warp: a loop the compiler vectorises
    for (unsigned lane = 0; lane < 32; ++lane) offset[lane] = static_cast<std::int64_t>(row.addr[lane] - base);
  } else {
    for (unsigned lane = 0; lane < 32; ++lane)
      offset[lane] = (row.active >> lane & 1) ? static_cast<std::int64_t>(row.addr[lane] - base) : 0;
  }

  Slot& slot = slots_[(reinterpret_cast<std::uintptr_t>(row.site) >> 3) % slots_.size()];
  if (slot.site == row.site && slot.active == row.active && slot.size == row.size &&
      slot.first_in_word == (base & 3)) {
    std::int64_t differ = 0;
    for (unsigned lane = 0; lane < 32; ++lane) differ |= offset[lane] ^ slot.offset[lane];
    if (differ == 0) return slot.pattern;
  }

  slot.site = row.site;
  slot.active = row.active;
  slot.size = row.size;
  slot.first_in_word = base & 3;
  for (unsigned lane = 0; lane < 32; ++lane) slot.offset[lane] = offset[lane];
  SharedPattern& p = slot.pattern;
  BankMap banks;
  p.one_wavefront = row.size <= 4 && map_banks(row, banks);
  p.cost = p.one_wavefront ? SharedCost{1, 1} : shared_wavefronts(row);
  p.words = 0;
  if (p.one_wavefront)
    for (std::uint32_t used = banks.used; used; used &= used - 1) {
      const unsigned bank = static_cast<unsigned>(std::countr_zero(used));
      p.word_offset[p.words] = static_cast<std::int64_t>(banks.word[bank] - (base >> 2));
      p.lanes[p.words++] = banks.lanes[bank];
    }
  return p;
}

}  // namespace simt
