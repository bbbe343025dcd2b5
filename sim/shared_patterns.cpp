#include "sim/shared_patterns.hpp"

#include <bit>

namespace simt {

const SharedPattern& SharedPatternCache::analyse(const WarpAccess& row) {
  const unsigned first = static_cast<unsigned>(std::countr_zero(row.active));
  const std::uint64_t base = row.addr[first];
  std::int64_t offset[32];
  for (unsigned lane = 0; lane < 32; ++lane)  // no branches: the compiler vectorises this
    offset[lane] = static_cast<std::int64_t>((row.active >> lane & 1) * (row.addr[lane] - base));

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
