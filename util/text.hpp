// Building messages without a formatting library: util/ is compiled by every
// build of simtlab, nvcc's included, so it depends on the standard library alone.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace simt {

// concat("block ", 3, " of ", 4.5) -> "block 3 of 4.5" (operator<< for each piece).
template <class... Pieces>
std::string concat(const Pieces&... pieces) {
  std::ostringstream out;
  (out << ... << pieces);
  return out.str();
}

inline std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

}  // namespace simt
