#include "sim/count/bank_rule.hpp"

#include <algorithm>
#include <bit>

namespace simt {

bool map_banks(const WarpAccess& a, BankMap& m) {
  m.used = 0;
  for (std::uint32_t active = a.active; active; active &= active - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(active));
    const std::uint64_t w = a.addr[lane] >> 2;
    const unsigned bank = static_cast<unsigned>(w & 31);
    if (!(m.used >> bank & 1)) {
      m.used |= 1u << bank;
      m.word[bank] = w;
      m.lanes[bank] = 1u << lane;
    } else if (m.word[bank] == w) {
      m.lanes[bank] |= 1u << lane;
    } else {
      return false;
    }
  }
  return true;
}

SharedCost shared_wavefronts(const WarpAccess& a) {
  BankMap banks;
  if (a.size <= 4 && map_banks(a, banks)) return {1, 1};
  // 4-byte (and narrower) accesses are served for the whole warp at once; 8- and
  // 16-byte accesses per half-warp. A wavefront delivers one word per bank, so a
  // part needs as many wavefronts as the busiest bank has distinct words; ideally
  // ceil(distinct words / 32). (Measured on an H200: a whole-warp broadcast LDS.128
  // is 2 wavefronts, a contiguous one 4; docs/validation/h200-patterns.md.)
  const unsigned lanes_per_phase = a.size <= 4 ? 32 : 16;
  SharedCost cost{0, 0};
  for (unsigned phase = 0; phase < 32 / lanes_per_phase; ++phase) {
    std::uint64_t words[128];
    int n = 0;
    for (unsigned lane = phase * lanes_per_phase; lane < (phase + 1) * lanes_per_phase; ++lane) {
      if (!(a.active >> lane & 1)) continue;
      for (std::uint64_t w = a.addr[lane] >> 2; w <= (a.addr[lane] + a.size - 1) >> 2; ++w) words[n++] = w;
    }
    if (n == 0) continue;
    if (!std::is_sorted(words, words + n)) std::sort(words, words + n);  // usually already in lane order
    n = static_cast<int>(std::unique(words, words + n) - words);
    unsigned per_bank[32] = {};
    unsigned worst = 0;
    for (int i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[words[i] & 31]);
    cost.wavefronts += worst;
    cost.ideal += static_cast<std::uint32_t>((n + 31) / 32);
  }
  return cost;
}

}  // namespace simt
