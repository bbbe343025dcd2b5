#include "launch_errors.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

namespace simt::cli {

namespace {

bool has_error_diagnostic(const nlohmann::json& launch) {
  const auto it = launch.find("diagnostics");
  if (it == launch.end() || !it->is_array()) return false;
  return std::any_of(it->begin(), it->end(),
                     [](const nlohmann::json& d) { return d.value("severity", "error") == "error"; });
}

}  // namespace

std::size_t launches_with_errors(const std::string& report_path) {
  std::ifstream in(report_path);
  if (!in) return 0;
  const nlohmann::json launches = nlohmann::json::parse(in, nullptr, false);
  if (!launches.is_array()) return 0;
  return std::count_if(launches.begin(), launches.end(), [](const nlohmann::json& l) {
    return l.value("error", 0) != 0 || has_error_diagnostic(l);
  });
}

}  // namespace simt::cli
