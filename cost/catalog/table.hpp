// Aligned text tables for cost-model output: columns size themselves to their
// widest cell; numbers right-aligned, text left-aligned.
#pragma once
#include <string>
#include <vector>

namespace simt::cost {

class Table {
 public:
  // A header ending in '>' (e.g. "time>") marks a right-aligned column; the '>'
  // is not printed.
  explicit Table(std::vector<std::string> headers);
  void add(std::vector<std::string> row);  // throws if the width differs
  std::string str() const;                  // header, rule, rows; '\n'-terminated

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace simt::cost
