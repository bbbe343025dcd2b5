#include "util/near_miss.hpp"

#include <algorithm>
#include <cctype>
#include "util/text.hpp"

namespace simt {

std::string normalize_name(const std::string& name) {
  std::string out;
  for (unsigned char c : name)
    if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
  return out;
}

std::optional<std::size_t> find_name(const std::string& query,
                                     const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == query) return i;
  std::optional<std::size_t> found;
  const std::string q = normalize_name(query);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (normalize_name(names[i]) != q) continue;
    if (found) return std::nullopt;  // ambiguous: refuse to guess
    found = i;
  }
  return found;
}

namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::vector<std::string> near_misses(const std::string& query,
                                     const std::vector<std::string>& names,
                                     std::size_t max) {
  const std::string q = normalize_name(query);
  if (q.empty()) return {};
  struct Scored { std::size_t score; std::size_t index; };
  std::vector<Scored> scored;
  // A typo changes at most about a third of a name; beyond that it is a guess.
  const std::size_t limit = std::max<std::size_t>(2, q.size() / 3 + 1);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string n = normalize_name(names[i]);
    if (n.rfind(q, 0) == 0) {
      scored.push_back({0, i});  // prefix: best possible
      continue;
    }
    // Compare with the name cut to the query's length too, so "A100-80" is near
    // "A100-80GB-SXM" although the full names differ by many characters.
    std::size_t d = std::min(edit_distance(q, n), edit_distance(q, n.substr(0, q.size())) + 1);
    if (d <= limit) scored.push_back({d, i});
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const Scored& a, const Scored& b) { return a.score < b.score; });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < scored.size() && out.size() < max; ++k)
    out.push_back(names[scored[k].index]);
  return out;
}

std::string unknown_name_message(const std::string& kind, const std::string& query,
                                 const std::vector<std::string>& names, const std::string& list_cmd) {
  auto near = near_misses(query, names);
  const std::string all = list_cmd.empty() ? concat("known: ", join(names, ", "))
                                           : concat("`", list_cmd, "` shows them all");
  if (near.empty()) return concat("unknown ", kind, " '", query, "'; ", all);
  std::string msg = concat("unknown ", kind, " '", query, "'; did you mean '", near[0], "'");
  for (std::size_t i = 1; i < near.size(); ++i) msg += concat(" or '", near[i], "'");
  return msg + (list_cmd.empty() ? "?" : concat("? (", all, ")"));
}

}  // namespace simt
