// Parsing and validating cost/catalog/devices.json. Every error names the file, the entry
// and the field, because the people editing this file are instructors adding a
// device, not the authors of this code.
#include "cost/catalog/catalog.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace simt::cost {
namespace {

using nlohmann::json;

constexpr double KiB = 1024.0, MiB = 1024.0 * KiB, GiB = 1024.0 * MiB;

const char* type_name(const json& j) { return j.type_name(); }

// Reads the fields of one entry; knows where it is so errors can say so.
class EntryReader {
 public:
  EntryReader(const json& entry, std::string where, const std::map<std::string, std::string>& sources)
      : entry_(entry), where_(std::move(where)), sources_(sources) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw std::runtime_error(fmt::format("{}: field '{}': {}", where_, field, what));
  }

  std::string text(const std::string& field) const {
    auto it = entry_.find(field);
    if (it == entry_.end()) fail(field, "missing");
    if (!it->is_string()) fail(field, fmt::format("expected a string, got {}", type_name(*it)));
    const std::string v = it->get<std::string>();
    if (v.find_first_not_of(" \t\r\n") == std::string::npos) fail(field, "must not be empty");
    return v;
  }

  // A sourced number {"value": number|null, "src": key, "note": text}; `scale`
  // converts the file's unit to SI. `nullable` fields may be null (unpublished).
  Sourced number(const std::string& field, double scale, bool nullable = false) const {
    return sourced(entry_, field, field, scale, nullable);
  }

  Sourced sourced(const json& parent, const std::string& key, const std::string& field,
                  double scale, bool nullable) const {
    auto it = parent.find(key);
    if (it == parent.end()) fail(field, "missing");
    if (!it->is_object())
      fail(field, fmt::format("expected an object {{\"value\": ..., \"src\": ...}}, got {}", type_name(*it)));
    Sourced s;
    auto v = it->find("value");
    if (v == it->end()) fail(field, "missing 'value'");
    if (v->is_null() && !nullable) fail(field, "'value' is null but this field is required");
    if (!v->is_null() && !v->is_number())
      fail(field, fmt::format("'value': expected a number, got {}", type_name(*v)));
    if (v->is_number()) {
      s.value = v->get<double>() * scale;
      if (!(s.value > 0)) fail(field, fmt::format("'value' must be positive, got {}", v->dump()));
      if (!std::isfinite(s.value)) fail(field, fmt::format("'value' must be finite, got {}", v->dump()));
    }
    auto src = it->find("src");
    if (src == it->end() || !src->is_string()) fail(field, "missing 'src' (a key of \"sources\")");
    auto known = sources_.find(src->get<std::string>());
    if (known == sources_.end())
      fail(field, fmt::format("'src' '{}' is not a key of \"sources\"", src->get<std::string>()));
    s.source = known->second;
    if (auto note = it->find("note"); note != it->end()) {
      if (!note->is_string()) fail(field, "'note': expected a string");
      s.note = note->get<std::string>();
    }
    return s;
  }

  // The title <url> of the "src" key in `obj`.
  std::string source_of(const json& obj, const std::string& field) const {
    auto src = obj.find("src");
    if (src == obj.end() || !src->is_string()) fail(field, "missing 'src' (a key of \"sources\")");
    auto known = sources_.find(src->get<std::string>());
    if (known == sources_.end()) fail(field, fmt::format("'src' '{}' is not a key of \"sources\"", src->get<std::string>()));
    return known->second;
  }

  // The field's value in the file's units must lie in [lo, hi] (a range that admits
  // every real GPU/TPU with headroom); 0 (null, unpublished) is skipped when `nullable`.
  void in_range(const std::map<std::string, Sourced>& fields, const std::string& field, double lo, double hi,
                const std::string& unit, bool nullable = false) const {
    auto it = fields.find(field);
    if (it == fields.end()) return;
    const double v = it->second.value;
    if (nullable && v == 0) return;
    if (!(v >= lo && v <= hi))
      fail(field, fmt::format("must be from {:g} to {:g} {}, got {:g}", lo, hi, unit, v));
  }

  const json& entry() const { return entry_; }
  const std::string& where() const { return where_; }

 private:
  const json& entry_;
  std::string where_;
  const std::map<std::string, std::string>& sources_;
};

std::map<std::string, std::string> read_sources(const json& root, const std::string& origin) {
  auto it = root.find("sources");
  if (it == root.end() || !it->is_object())
    throw std::runtime_error(fmt::format("{}: missing top-level object \"sources\"", origin));
  std::map<std::string, std::string> out;
  for (auto& [key, s] : it->items()) {
    if (!s.is_object() || !s.contains("title") || !s["title"].is_string() || !s.contains("url") ||
        !s["url"].is_string())
      throw std::runtime_error(
          fmt::format("{}: source '{}': expected {{\"title\": string, \"url\": string}}", origin, key));
    out[key] = fmt::format("{} <{}>", s["title"].get<std::string>(), s["url"].get<std::string>());
  }
  return out;
}

// Stores the field in `fields` (file units) and returns it in SI units.
double keep(std::map<std::string, Sourced>& fields, const std::string& key, Sourced s, double scale) {
  Sourced in_file = s;
  in_file.value = s.value / scale;
  fields[key] = in_file;
  return s.value;
}

int as_int(const EntryReader& r, const std::string& field, double v) {
  if (v != static_cast<double>(static_cast<long long>(v))) r.fail(field, "expected an integer");
  return static_cast<int>(v);
}

// fp16_cuda_cores: half precision without tensor cores (HADD2/HMUL2/HFMA2).
const char* const kPrecisions[] = {"fp64", "fp32", "fp16_cuda_cores", "tf32", "fp16", "bf16", "fp8", "int8"};

void read_peaks(const EntryReader& r, DeviceSpec& d) {
  auto it = r.entry().find("peak_tflops");
  if (it == r.entry().end()) r.fail("peak_tflops", "missing");
  if (!it->is_object()) r.fail("peak_tflops", "expected an object keyed by precision");
  for (auto& [key, value] : it->items()) {
    (void)value;
    if (std::find(std::begin(kPrecisions), std::end(kPrecisions), key) == std::end(kPrecisions))
      r.fail("peak_tflops." + key, "unknown precision; use fp64, fp32, fp16_cuda_cores, tf32, fp16, bf16, fp8, int8");
    Sourced s = r.sourced(*it, key, "peak_tflops." + key, 1e12, false);
    d.peak[key] = s;
    keep(d.fields, "peak_tflops." + key, s, 1e12);
  }
  if (d.peak.empty()) r.fail("peak_tflops", "no precision given");
}

void read_calibration(const EntryReader& r, DeviceSpec& d) {
  auto it = r.entry().find("calibration");
  if (it == r.entry().end()) return;
  if (!it->is_object()) r.fail("calibration", "expected an object with min_kernel_us and dram_efficiency");
  Sourced floor = r.sourced(*it, "min_kernel_us", "calibration.min_kernel_us", 1e-6, false);
  Sourced eff = r.sourced(*it, "dram_efficiency", "calibration.dram_efficiency", 1, false);
  if (eff.value <= 0 || eff.value > 1) r.fail("calibration.dram_efficiency", "expected a fraction in (0, 1]");
  d.calibration = {floor.value, eff.value, eff.source};
  keep(d.fields, "calibration.min_kernel_us", floor, 1e-6);
  keep(d.fields, "calibration.dram_efficiency", eff, 1);
}

// "kernel_model": {"key": {"value", "src", "note"}, ...}; any key, kept in file units.
void read_kernel_model(const EntryReader& r, DeviceSpec& d) {
  auto it = r.entry().find("kernel_model");
  if (it == r.entry().end()) return;
  if (!it->is_object()) r.fail("kernel_model", "expected an object of sourced numbers");
  for (auto& [key, value] : it->items()) {
    (void)value;
    Sourced s = r.sourced(*it, key, "kernel_model." + key, 1, false);
    d.kernel_model[key] = s;
    keep(d.fields, "kernel_model." + key, s, 1);
  }
}

// "host_link": {"link": a name in "links", "src": key, "note": text}; optional.
// That the link exists is checked once every link is read (check_host_links).
void read_host_link(const EntryReader& r, DeviceSpec& d) {
  auto it = r.entry().find("host_link");
  if (it == r.entry().end()) return;
  if (!it->is_object() || !it->contains("link") || !(*it)["link"].is_string())
    r.fail("host_link", "expected {\"link\": a name in \"links\", \"src\": ..., \"note\": ...}");
  d.host_link = (*it)["link"].get<std::string>();
  d.host_link_source = r.source_of(*it, "host_link");
  if (auto note = it->find("note"); note != it->end() && note->is_string()) d.host_link_source += "; " + note->get<std::string>();
}

// Ranges and relations every GPU of the catalog satisfies (V100 to B200, T4 to
// RTX 4090 read from 32 to 228 KiB of shared memory per SM, 320 to 7700 GB/s).
void check_common(const EntryReader& r, const DeviceSpec& d) {
  r.in_range(d.fields, "memory_gib", 0.25, 4096, "GiB");
  r.in_range(d.fields, "memory_bandwidth_gbs", 1, 100000, "GB/s");
  r.in_range(d.fields, "tdp_w", 1, 10000, "W", true);
  r.in_range(d.fields, "price_per_hour_usd", 0.001, 10000, "USD per hour", true);
  for (const auto& [key, peak] : d.peak) r.in_range(d.fields, "peak_tflops." + key, 0.001, 100000, "TFLOP/s");
}

void check_gpu(const EntryReader& r, const DeviceSpec& d) {
  const std::string& cc = d.compute_capability;
  const auto dot = cc.find('.');
  const auto digits = [](const std::string& t) {
    return !t.empty() && t.size() <= 2 && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (dot == std::string::npos || !digits(cc.substr(0, dot)) || cc.size() != dot + 2 || !digits(cc.substr(dot + 1)))
    r.fail("compute_capability", fmt::format("must be MAJOR.MINOR such as \"9.0\", got \"{}\"", cc));
  if (d.warp_size != 32)
    r.fail("warp_size", fmt::format("must be 32 (every NVIDIA GPU; the simulator runs 32-lane warps), got {}",
                                    d.warp_size));
  r.in_range(d.fields, "sm_count", 1, 1024, "SMs", true);
  r.in_range(d.fields, "boost_clock_mhz", 100, 10000, "MHz", true);
  r.in_range(d.fields, "max_threads_per_block", 32, 4096, "threads");
  if (d.max_threads_per_block % d.warp_size != 0)
    r.fail("max_threads_per_block", fmt::format("must be a multiple of warp_size {}, got {}", d.warp_size,
                                                d.max_threads_per_block));
  r.in_range(d.fields, "max_threads_per_sm", 32, 8192, "threads");
  if (d.max_threads_per_sm < d.max_threads_per_block)
    r.fail("max_threads_per_sm", fmt::format("must be at least max_threads_per_block {}, got {}",
                                             d.max_threads_per_block, d.max_threads_per_sm));
  r.in_range(d.fields, "registers_per_sm", 1024, 1048576, "registers");
  r.in_range(d.fields, "shared_per_sm_kib", 1, 4096, "KiB");
  r.in_range(d.fields, "shared_per_block_kib", 1, 4096, "KiB");
  r.in_range(d.fields, "shared_per_block_optin_kib", 1, 4096, "KiB");
  if (d.shared_per_block_bytes > d.shared_per_sm_bytes)
    r.fail("shared_per_sm_kib", fmt::format("must be at least shared_per_block_kib {:g} (a block runs on one SM), got "
                                            "{:g}",
                                            d.shared_per_block_bytes / KiB, d.shared_per_sm_bytes / KiB));
  if (d.shared_per_block_optin_bytes < d.shared_per_block_bytes ||
      d.shared_per_block_optin_bytes > d.shared_per_sm_bytes)
    r.fail("shared_per_block_optin_kib",
           fmt::format("must be from shared_per_block_kib {:g} to shared_per_sm_kib {:g}, got {:g}",
                       d.shared_per_block_bytes / KiB, d.shared_per_sm_bytes / KiB,
                       d.shared_per_block_optin_bytes / KiB));
  r.in_range(d.fields, "l2_mib", 0.0625, 4096, "MiB", true);
  r.in_range(d.fields, "l2_bandwidth_gbs", 1, 1000000, "GB/s", true);
  r.in_range(d.fields, "calibration.min_kernel_us", 0.01, 10000, "us");
  check_common(r, d);
}

DeviceSpec read_device(const EntryReader& r) {
  DeviceSpec d;
  d.name = r.text("name");
  d.full_name = r.text("full_name");
  d.arch = r.text("arch");
  d.compute_capability = r.text("compute_capability");
  auto num = [&](const char* key, double scale, bool nullable = false) {
    return keep(d.fields, key, r.number(key, scale, nullable), scale);
  };
  d.sm_count = as_int(r, "sm_count", num("sm_count", 1, true));
  d.boost_clock_ghz = num("boost_clock_mhz", 1e-3, true);
  d.warp_size = as_int(r, "warp_size", num("warp_size", 1));
  d.max_threads_per_block = as_int(r, "max_threads_per_block", num("max_threads_per_block", 1));
  d.max_threads_per_sm = as_int(r, "max_threads_per_sm", num("max_threads_per_sm", 1));
  d.registers_per_sm = as_int(r, "registers_per_sm", num("registers_per_sm", 1));
  d.shared_per_sm_bytes = num("shared_per_sm_kib", KiB);
  d.shared_per_block_bytes = num("shared_per_block_kib", KiB);
  d.shared_per_block_optin_bytes = num("shared_per_block_optin_kib", KiB);
  d.l2_bytes = num("l2_mib", MiB, true);
  d.hbm_bytes = num("memory_gib", GiB);
  d.hbm_bandwidth = num("memory_bandwidth_gbs", 1e9);
  d.tdp_watts = num("tdp_w", 1, true);
  if (r.entry().contains("l2_bandwidth_gbs")) d.l2_bandwidth = num("l2_bandwidth_gbs", 1e9, true);
  if (r.entry().contains("price_per_hour_usd")) d.price_per_hour_usd = num("price_per_hour_usd", 1, true);
  read_peaks(r, d);
  read_calibration(r, d);
  read_kernel_model(r, d);
  read_host_link(r, d);
  check_gpu(r, d);
  return d;
}

// A TPU chip: no SIMT fields (warps, shared memory), only what the LLM cost
// model needs; `arch` is "TPU" so SIMT commands can refuse it.
DeviceSpec read_tpu(const EntryReader& r) {
  DeviceSpec d;
  d.name = r.text("name");
  d.full_name = r.text("full_name");
  d.arch = r.text("arch");
  if (d.arch != "TPU") r.fail("arch", "expected \"TPU\" in the tpus array");
  auto num = [&](const char* key, double scale, bool nullable = false) {
    return keep(d.fields, key, r.number(key, scale, nullable), scale);
  };
  d.hbm_bytes = num("memory_gib", GiB);
  d.hbm_bandwidth = num("memory_bandwidth_gbs", 1e9);
  num("ici_bandwidth_gbs", 1e9);
  d.tdp_watts = num("tdp_w", 1, true);
  if (r.entry().contains("price_per_hour_usd")) d.price_per_hour_usd = num("price_per_hour_usd", 1, true);
  read_peaks(r, d);
  r.in_range(d.fields, "ici_bandwidth_gbs", 1, 100000, "GB/s");
  check_common(r, d);
  return d;
}

LinkSpec read_link(const EntryReader& r) {
  LinkSpec l;
  l.name = r.text("name");
  l.full_name = r.text("full_name");
  Sourced bw = r.number("bandwidth_gbs", 1e9);
  l.bandwidth = keep(l.fields, "bandwidth_gbs", bw, 1e9);
  l.source = bw.source;
  l.latency_s = keep(l.fields, "latency_us", r.number("latency_us", 1e-6), 1e-6);
  r.in_range(l.fields, "bandwidth_gbs", 0.1, 100000, "GB/s");
  r.in_range(l.fields, "latency_us", 0.001, 100000, "us");
  // Measured NCCL behaviour over the link (cost/comm/nccl_model.hpp); optional.
  for (const char* field : {"nccl_busbw_gbs", "nccl_call_us", "peer_copy_gbs", "peer_copy_us"})
    if (r.entry().contains(field)) keep(l.fields, field, r.number(field, 1.0), 1.0);
  r.in_range(l.fields, "nccl_busbw_gbs", 0.1, 100000, "GB/s");
  r.in_range(l.fields, "peer_copy_gbs", 0.1, 100000, "GB/s");
  r.in_range(l.fields, "nccl_call_us", 0.01, 100000, "us");
  r.in_range(l.fields, "peer_copy_us", 0.01, 100000, "us");
  return l;
}

// Label of entry i for messages: "file: device 'H100-SXM' (devices[3])".
std::string entry_label(const std::string& origin, const char* kind, const char* array,
                        std::size_t i, const json& e) {
  std::string name = (e.is_object() && e.contains("name") && e["name"].is_string())
                         ? fmt::format(" '{}'", e["name"].get<std::string>())
                         : std::string();
  return fmt::format("{}: {}{} ({}[{}])", origin, kind, name, array, i);
}

template <class Spec, class Read>
std::vector<Spec> read_array(const json& root, const std::string& origin, const char* array,
                             const char* kind, const std::map<std::string, std::string>& sources,
                             Read read) {
  auto it = root.find(array);
  if (it == root.end() || !it->is_array())
    throw std::runtime_error(fmt::format("{}: missing top-level array \"{}\"", origin, array));
  std::vector<Spec> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json& e = (*it)[i];
    std::string where = entry_label(origin, kind, array, i, e);
    if (!e.is_object()) throw std::runtime_error(where + ": expected an object");
    Spec spec = read(EntryReader(e, where, sources));
    for (const Spec& seen : out)
      if (seen.name == spec.name) throw std::runtime_error(where + ": duplicate name");
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

Catalog Catalog::parse(const std::string& text, const std::string& origin) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", origin, e.what()));
  }
  if (!root.is_object()) throw std::runtime_error(origin + ": expected a JSON object at top level");
  auto sources = read_sources(root, origin);
  Catalog c;
  c.origin_ = origin;
  c.devices_ = read_array<DeviceSpec>(root, origin, "devices", "device", sources, read_device);
  c.links_ = read_array<LinkSpec>(root, origin, "links", "link", sources, read_link);
  if (root.contains("tpus")) c.tpus_ = read_array<DeviceSpec>(root, origin, "tpus", "TPU", sources, read_tpu);
  for (const DeviceSpec& d : c.devices_) {
    bool known = d.host_link.empty();
    for (const LinkSpec& l : c.links_) known = known || l.name == d.host_link;
    if (!known)
      throw std::runtime_error(fmt::format("{}: device '{}': field 'host_link': '{}' is not a name in \"links\"", origin,
                                           d.name, d.host_link));
  }
  return c;
}

Catalog Catalog::load(const std::string& path) {
  // Only a regular file of sane size: a FIFO would block the open, /dev/zero would
  // never end ($SIMT_CATALOG can name anything). The real catalog is ~60 KB.
  constexpr std::uintmax_t kMaxBytes = 16u << 20;
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) throw std::runtime_error(fmt::format("cannot read device catalog '{}'", path));
  if (!std::filesystem::is_regular_file(st))
    throw std::runtime_error(fmt::format(
        "device catalog '{}' is not a regular file (a directory, FIFO or device); it must be a JSON file", path));
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxBytes)
    throw std::runtime_error(fmt::format("device catalog '{}' is {} bytes, more than the {} MiB a catalog may be", path,
                                         ec ? std::string("of unknown size,") : std::to_string(size),
                                         kMaxBytes >> 20));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("cannot read device catalog '{}'", path));
  std::string text(kMaxBytes + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(std::size_t(in.gcount()));
  if (text.size() > kMaxBytes)
    throw std::runtime_error(fmt::format("device catalog '{}' is more than the {} MiB a catalog may be", path,
                                         kMaxBytes >> 20));
  return parse(text, path);
}

}  // namespace simt::cost
