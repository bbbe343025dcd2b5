#include "cost/catalog/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace simt::cost {

Table::Table(std::vector<std::string> headers) {
  for (std::string& h : headers) {
    bool right = !h.empty() && h.back() == '>';
    if (right) h.pop_back();
    right_.push_back(right);
    headers_.push_back(std::move(h));
  }
}

void Table::add(std::vector<std::string> row) {
  if (row.size() != headers_.size())
    throw std::logic_error(fmt::format("table row has {} cells, header has {}", row.size(), headers_.size()));
  rows_.push_back(std::move(row));
}

std::string Table::str() const {
  std::vector<std::size_t> width(headers_.size());
  for (std::size_t c = 0; c < headers_.size(); ++c) {
    width[c] = headers_[c].size();
    for (const auto& row : rows_) width[c] = std::max(width[c], row[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) out += "  ";
      out += right_[c] ? fmt::format("{:>{}}", cells[c], width[c]) : fmt::format("{:<{}}", cells[c], width[c]);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(headers_);
  std::size_t total = 0;
  for (std::size_t w : width) total += w;
  out += std::string(total + 2 * (width.size() - 1), '-') + "\n";
  for (const auto& row : rows_) out += line(row);
  return out;
}

}  // namespace simt::cost
