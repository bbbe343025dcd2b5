#include "models/near_miss.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace simt::models {

namespace {
std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}
}  // namespace

int edit_distance(const std::string& a0, const std::string& b0) {
  const std::string a = lower(a0), b = lower(b0);
  std::vector<int> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    int diag = row[0];
    row[0] = int(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::vector<std::string> near_misses(const std::string& name, const std::vector<std::string>& candidates) {
  // Close enough: a third of the typed name may be wrong, or the typed name is a
  // fragment of a candidate ("llama3" for "llama3-8b").
  const int limit = std::max<int>(2, int(name.size()) / 3);
  std::vector<std::pair<int, std::string>> scored;
  for (const auto& c : candidates) {
    int d = edit_distance(name, c);
    if (!name.empty() && lower(c).find(lower(name)) != std::string::npos) d = std::min(d, 1);
    if (d <= limit) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) out.push_back(scored[i].second);
  return out;
}

std::string unknown_name_message(const std::string& kind, const std::string& name,
                                 const std::vector<std::string>& candidates, const std::string& list_cmd) {
  std::string msg = "unknown " + kind + " '" + name + "'";
  const auto close = near_misses(name, candidates);
  if (!close.empty()) {
    msg += "; did you mean ";
    for (size_t i = 0; i < close.size(); ++i)
      msg += (i ? (i + 1 == close.size() ? " or '" : ", '") : "'") + close[i] + "'";
    msg += "?";
  }
  return msg + " (`" + list_cmd + "` lists them)";
}

}  // namespace simt::models
