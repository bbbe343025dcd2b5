#include "validate_compare.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace simt::cli {

std::vector<LaunchDigest> parse_digests(const std::string& text, const std::string& file) {
  std::vector<LaunchDigest> launches;
  std::istringstream in(text);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::istringstream words(line);
    std::string kind, key;
    words >> kind;
    if (kind == "launch") {
      unsigned index = 0;
      std::string kernel_key;
      LaunchDigest d;
      if (!(words >> index >> key >> d.error >> kernel_key) || key != "error" || kernel_key != "kernel")
        throw std::runtime_error(fmt::format("{}:{}: malformed launch line", file, n));
      std::getline(words >> std::ws, d.kernel);
      launches.push_back(std::move(d));
    } else if (kind == "alloc") {
      AllocationDigest a;
      if (!(words >> a.id >> a.bytes >> a.hash) || launches.empty())
        throw std::runtime_error(fmt::format("{}:{}: malformed allocation line", file, n));
      launches.back().allocations.push_back(a);
    } else if (!kind.empty()) {
      throw std::runtime_error(fmt::format("{}:{}: unexpected '{}'", file, n, kind));
    }
  }
  return launches;
}

namespace {

// Splits one CSV line of quoted fields ("a","b,c") into its fields.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.push_back(std::exchange(field, {}));
    else field += c;
  }
  fields.push_back(field);
  return fields;
}

std::string allocation_difference(const LaunchDigest& s, const LaunchDigest& g) {
  if (s.allocations.size() != g.allocations.size())
    return fmt::format("{} live allocations on the simulator, {} on the GPU", s.allocations.size(),
                       g.allocations.size());
  for (std::size_t i = 0; i < s.allocations.size(); ++i) {
    const AllocationDigest &a = s.allocations[i], &b = g.allocations[i];
    if (a.id != b.id || a.bytes != b.bytes)
      return fmt::format("allocation #{} ({} B) on the simulator is #{} ({} B) on the GPU", a.id, a.bytes, b.id,
                         b.bytes);
    if (a.hash != b.hash) return fmt::format("allocation #{} ({} B) differs", a.id, a.bytes);
  }
  return {};
}

}  // namespace

std::vector<NcuLaunch> parse_ncu_csv(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> header;
  std::map<long, NcuLaunch> by_id;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() != '"') continue;  // ncu's own messages ("==PROF== ...")
    std::vector<std::string> f = csv_fields(line);
    if (header.empty()) {
      header = f;
      continue;
    }
    auto col = [&](const char* name) -> const std::string& {
      auto it = std::find(header.begin(), header.end(), name);
      if (it == header.end() || std::size_t(it - header.begin()) >= f.size())
        throw std::runtime_error(fmt::format("ncu CSV has no column '{}'", name));
      return f[it - header.begin()];
    };
    std::string value = col("Metric Value");
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    try {
      by_id[std::stol(col("ID"))][col("Metric Name")] = std::stod(value);
    } catch (const std::logic_error&) {  // "n/a" and the like
    }
  }
  std::vector<NcuLaunch> launches;
  for (auto& [id, m] : by_id) launches.push_back(std::move(m));
  return launches;
}

std::vector<LaunchVerdict> compare_memory(const std::vector<LaunchDigest>& sim, const std::vector<LaunchDigest>& gpu) {
  std::vector<LaunchVerdict> out;
  for (std::size_t i = 0; i < std::max(sim.size(), gpu.size()); ++i) {
    LaunchVerdict v;
    if (i >= sim.size() || i >= gpu.size()) {
      v.kernel = i < sim.size() ? sim[i].kernel : gpu[i].kernel;
      v.memory_same = false;
      v.memory_detail = i < sim.size() ? "no such launch on the GPU" : "no such launch on the simulator";
    } else if (sim[i].kernel != gpu[i].kernel) {
      v.kernel = sim[i].kernel;
      v.memory_same = false;
      v.memory_detail = fmt::format("the GPU launched {} here", gpu[i].kernel);
    } else if (sim[i].error != gpu[i].error) {
      v.kernel = sim[i].kernel;
      v.memory_same = false;
      v.memory_detail = fmt::format("CUDA error {} on the simulator, {} on the GPU", sim[i].error, gpu[i].error);
    } else if (sim[i].error != 0) {
      // The same launch error on both sides: after a kernel fault the GPU's context is
      // lost and its memory can no longer be read, so the error is the comparison.
      v.kernel = sim[i].kernel;
      v.memory_same = true;
      v.memory_detail = fmt::format("same CUDA error {} on both (no memory to compare after it)", sim[i].error);
    } else {
      v.kernel = sim[i].kernel;
      v.memory_detail = allocation_difference(sim[i], gpu[i]);
      v.memory_same = v.memory_detail.empty();
      if (v.memory_same)
        v.memory_detail = fmt::format("{} allocation{} bit-identical", sim[i].allocations.size(),
                                      sim[i].allocations.size() == 1 ? "" : "s");
    }
    out.push_back(std::move(v));
  }
  return out;
}

void compare_counters(std::vector<LaunchVerdict>& verdicts, const nlohmann::json& sim_launches,
                      const std::vector<NcuLaunch>& ncu, const std::vector<std::string>& metrics) {
  for (std::size_t i = 0; i < verdicts.size() && i < sim_launches.size() && i < ncu.size(); ++i) {
    LaunchVerdict& v = verdicts[i];
    const nlohmann::json& m = sim_launches[i]["metrics"];
    for (const std::string& name : metrics) {
      auto gpu = ncu[i].find(name);
      // ncu has no value (nan) for a kernel that faulted.
      if (gpu == ncu[i].end() || std::isnan(gpu->second) || !m.contains(name)) continue;
      ++v.counters_compared;
      const double sim = m[name].get<double>();
      if (std::fabs(sim - gpu->second) < 0.5) ++v.counters_equal;
      else if (v.counter_detail.empty())
        v.counter_detail = fmt::format("{}: {} on the simulator, {} on the GPU", name, sim, gpu->second);
    }
  }
}

}  // namespace simt::cli
