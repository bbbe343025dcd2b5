// Catalog lookup: the built-in file, $SIMT_CATALOG, and forgiving name matching.
#include "cost/catalog/catalog.hpp"

#include "util/near_miss.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace simt::cost {

const Sourced& DeviceSpec::peak_for(const std::string& precision) const {
  auto it = peak.find(precision);
  if (it != peak.end()) return it->second;
  std::vector<std::string> keys;
  for (auto& [k, v] : peak) keys.push_back(k);
  throw std::invalid_argument(fmt::format("device '{}' has no published {} peak; it has: {}", name,
                                       precision, fmt::join(keys, ", ")));
}

// $SIMT_CATALOG, else the catalog installed beside the running binary
// (<prefix>/share/simtlab, where `cmake --install` puts it), else the source tree's.
std::string Catalog::builtin_path() {
  if (const char* env = std::getenv("SIMT_CATALOG"); env && *env) return env;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto installed = exe.parent_path().parent_path() / "share" / "simtlab" / "devices.json";
    if (std::filesystem::exists(installed, ec)) return installed.string();
  }
  return std::string(SIMTLAB_SOURCE_DIR) + "/cost/catalog/devices.json";
}

const Catalog& Catalog::builtin() {
  // Loaded once per process; a malformed file throws on every call rather than
  // caching a half-read catalog.
  static const Catalog catalog = load(builtin_path());
  return catalog;
}

namespace {

template <class Spec>
const Spec& lookup(const std::vector<Spec>& specs, const std::string& name, const char* kind) {
  std::vector<std::string> names;
  for (const Spec& s : specs) names.push_back(s.name);
  if (auto i = find_name(name, names)) return specs[*i];
  throw std::invalid_argument(unknown_name_message(kind, name, names));
}

}  // namespace

const DeviceSpec& Catalog::device(const std::string& name) const {
  return lookup(devices_, name, "device");
}

const DeviceSpec& Catalog::accelerator(const std::string& name) const {
  std::vector<const DeviceSpec*> all;
  std::vector<std::string> names;
  for (const auto* list : {&devices_, &tpus_})
    for (const DeviceSpec& d : *list) {
      all.push_back(&d);
      names.push_back(d.name);
    }
  if (auto i = find_name(name, names)) return *all[*i];
  throw std::invalid_argument(unknown_name_message("device", name, names));  // a usage error (exit 2), as device()
}

const LinkSpec& Catalog::link(const std::string& name) const { return lookup(links_, name, "link"); }

}  // namespace simt::cost
