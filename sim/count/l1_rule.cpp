#include "sim/count/l1_rule.hpp"

#include <algorithm>
#include <array>

namespace simt {

std::uint32_t l1_data_cycles(const std::uint64_t* sectors, std::uint32_t n) {
  std::uint32_t lines = 0;
  std::array<std::uint32_t, 4> at_place{};  // lines with a sector at each place
  unsigned places = 0;                      // of the current line
  for (std::uint32_t i = 0; i < n; ++i) {
    places |= 1u << (sectors[i] & 3);
    if (i + 1 == n || sectors[i + 1] >> 2 != sectors[i] >> 2) {  // the line's last sector
      ++lines;
      for (unsigned p = 0; p < 4; ++p) at_place[p] += places >> p & 1;
      places = 0;
    }
  }
  return std::max((lines + 1) / 2, *std::max_element(at_place.begin(), at_place.end()));
}

}  // namespace simt
