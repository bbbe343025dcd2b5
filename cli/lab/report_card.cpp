#include "cli/lab/report_card.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

namespace simt::cli::lab {

namespace {

std::string label_of(const Criterion& c) { return c.estimate ? c.label + " (estimate)" : c.label; }

std::string row(const std::string& text) {
  std::string r = text;
  r.erase(r.find_last_not_of(' ') + 1);  // no trailing blanks when the last columns are empty
  return r + "\n";
}

std::string indent(const std::string& text, const std::string& by) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += by + line + "\n";
  return out;
}

}  // namespace

std::string card_text(const Lab& lab, const ReportCard& card) {
  std::size_t wl = 9, wm = 8, wt = 6;
  for (const Criterion& c : card.criteria) {
    wl = std::max(wl, label_of(c).size());
    wm = std::max(wm, c.measured.size());
    wt = std::max(wt, c.target.size());
  }
  std::string out = fmt::format("\nsimt lab check {}: {}  ({})\n\n", lab.name, lab.title, card.file);
  out += row(fmt::format("  {:<6} {:<{}}  {:>{}}  {:<{}}  {}", "", "criterion", wl, "measured", wm, "target", wt, "where"));
  const Criterion* first_failure = nullptr;
  for (const Criterion& c : card.criteria) {
    out += row(fmt::format("  {:<6} {:<{}}  {:>{}}  {:<{}}  {}", c.pass ? "pass" : "FAIL", label_of(c), wl, c.measured,
                           wm, c.target, wt, c.pass ? "" : c.where));
    if (!c.pass && !c.detail.empty()) out += fmt::format("  {:<6} {}\n", "", c.detail);
    if (!c.pass && !c.picture.empty()) out += fmt::format("  {:<6} picture: {}\n", "", c.picture);
    if (!c.pass && !first_failure) first_failure = &c;
  }
  if (!first_failure) {
    out += fmt::format("\nAll {} criteria pass: lab {} is done.\n", card.criteria.size(), lab.name);
    return out;
  }
  out += fmt::format("\n{} of {} criteria fail.\n", card.failures(), card.criteria.size());
  const std::string hint = !first_failure->hint.empty() ? first_failure->hint
                           : !lab.hints.empty()         ? lab.hints.front()
                                                        : "";
  if (!hint.empty()) out += "\nHint:\n" + indent(hint, "  ");
  if (lab.hints.size() > 1)
    out += fmt::format("\nMore hints, each more detailed: simt lab hint {} 2 (up to {})\n", lab.name, lab.hints.size());
  return out;
}

nlohmann::json card_json(const ReportCard& card) {
  nlohmann::json criteria = nlohmann::json::array();
  for (const Criterion& c : card.criteria)
    criteria.push_back({{"criterion", c.label},
                        {"measured", c.measured},
                        {"target", c.target},
                        {"pass", c.pass},
                        {"estimate", c.estimate},
                        {"where", c.where},
                        {"detail", c.detail},
                        {"picture", c.picture}});
  return {{"lab", card.lab}, {"file", card.file}, {"passed", card.passed()}, {"criteria", criteria}};
}

}  // namespace simt::cli::lab
