#include "validate_compare.hpp"

#include "sim/exec/launch_dump.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
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

// What differs between two launches' allocations, or "" when nothing does; the ids of
// allocations that differ in content alone go to `differing` (left empty when the
// allocations themselves differ: no element comparison then).
std::string allocation_difference(const LaunchDigest& s, const LaunchDigest& g, std::vector<std::uint64_t>& differing) {
  if (s.allocations.size() != g.allocations.size())
    return fmt::format("{} live allocations on the simulator, {} on the GPU", s.allocations.size(),
                       g.allocations.size());
  std::string first;
  for (std::size_t i = 0; i < s.allocations.size(); ++i) {
    const AllocationDigest &a = s.allocations[i], &b = g.allocations[i];
    if (a.id != b.id || a.bytes != b.bytes) {
      differing.clear();
      return fmt::format("allocation #{} ({} B) on the simulator is #{} ({} B) on the GPU", a.id, a.bytes, b.id,
                         b.bytes);
    }
    if (a.hash != b.hash) {
      if (first.empty()) first = fmt::format("allocation #{} ({} B) differs", a.id, a.bytes);
      differing.push_back(a.id);
    }
  }
  if (differing.size() > 1) first += fmt::format(" (and {} more)", differing.size() - 1);
  return first;
}

// The format of an element kind: total bits, exponent bits.
struct Format {
  int bits, exponent_bits;
};
Format format_of(ElementKind k) {
  switch (k) {
    case ElementKind::F32: return {32, 8};
    case ElementKind::F64: return {64, 11};
    case ElementKind::F16: return {16, 5};
    case ElementKind::BF16: return {16, 8};
    case ElementKind::Bytes: return {8, 0};
  }
  return {8, 0};
}

std::uint64_t load_bits(const unsigned char* p, std::size_t n) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, n);  // little-endian, as both the host and the GPU store them
  return v;
}

// An element's value as text: the shortest that reads back to the same value.
std::string element_text(ElementKind k, std::uint64_t bits) {
  switch (k) {
    case ElementKind::F32: return fmt::format("{}", std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case ElementKind::F64: return fmt::format("{}", std::bit_cast<double>(bits));
    case ElementKind::BF16: return fmt::format("{}", std::bit_cast<float>(static_cast<std::uint32_t>(bits << 16)));
    case ElementKind::F16: {
      const int e = (bits >> 10) & 0x1f;
      const double m = bits & 0x3ff, sign = bits & 0x8000 ? -1.0 : 1.0;
      const double v = e == 0x1f ? (m ? NAN : INFINITY) : e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
      return fmt::format("{}", static_cast<float>(sign * v));  // every half is exact as a float
    }
    case ElementKind::Bytes: return fmt::format("0x{:02x}", bits);
  }
  return {};
}

}  // namespace

std::optional<ElementKind> parse_element_kind(std::string_view name) {
  if (name == "f32") return ElementKind::F32;
  if (name == "f64") return ElementKind::F64;
  if (name == "f16") return ElementKind::F16;
  if (name == "bf16") return ElementKind::BF16;
  if (name == "bytes") return ElementKind::Bytes;
  return std::nullopt;
}

std::size_t element_bytes(ElementKind k) { return format_of(k).bits / 8; }

std::string_view element_plural(ElementKind k) {
  switch (k) {
    case ElementKind::F32: return "floats";
    case ElementKind::F64: return "doubles";
    case ElementKind::F16: return "halves";
    case ElementKind::BF16: return "bf16s";
    case ElementKind::Bytes: return "bytes";
  }
  return "elements";
}

std::uint64_t ulp_distance(ElementKind k, std::uint64_t a, std::uint64_t b) {
  if (a == b) return 0;
  const Format f = format_of(k);
  if (f.exponent_bits == 0) return kInfiniteUlp;  // bytes
  const int mantissa_bits = f.bits - 1 - f.exponent_bits;
  const std::uint64_t sign = std::uint64_t{1} << (f.bits - 1), magnitude_mask = sign - 1;
  const std::uint64_t exponent_mask = ((std::uint64_t{1} << f.exponent_bits) - 1) << mantissa_bits;
  auto is_nan = [&](std::uint64_t v) {
    return (v & exponent_mask) == exponent_mask && (v & magnitude_mask & ~exponent_mask) != 0;
  };
  const bool a_nan = is_nan(a), b_nan = is_nan(b);
  if (a_nan || b_nan) return a_nan && b_nan ? 0 : kInfiniteUlp;
  // Sign-magnitude onto the integers: the magnitude, negated when the sign is set. Two
  // values of one sign are |ma - mb| apart; of opposite signs ma + mb (no overflow:
  // each magnitude is below 2^63 for f64, and infinity's the largest).
  const std::uint64_t ma = a & magnitude_mask, mb = b & magnitude_mask;
  if ((a & sign) == (b & sign)) return ma > mb ? ma - mb : mb - ma;
  return ma + mb;
}

std::uint64_t ulp_distance(float a, float b) {
  return ulp_distance(ElementKind::F32, std::bit_cast<std::uint32_t>(a), std::bit_cast<std::uint32_t>(b));
}

std::uint64_t ulp_distance(double a, double b) {
  return ulp_distance(ElementKind::F64, std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b));
}

std::string format_ulp(std::uint64_t ulp) { return ulp == kInfiniteUlp ? "inf ulp" : fmt::format("{} ulp", ulp); }

ElementComparison compare_elements(std::span<const unsigned char> sim, std::span<const unsigned char> gpu,
                                   ElementKind kind) {
  ElementComparison c;
  const std::size_t size = element_bytes(kind), bytes = std::min(sim.size(), gpu.size());
  c.elements = bytes / size;
  bool any = false;
  for (std::uint64_t i = 0; i < c.elements; ++i) {
    const std::size_t at = i * size;
    if (std::memcmp(sim.data() + at, gpu.data() + at, size) == 0) continue;
    const std::uint64_t a = load_bits(sim.data() + at, size), b = load_bits(gpu.data() + at, size);
    const std::uint64_t d = ulp_distance(kind, a, b);
    ++c.differing;
    if (!any) {
      c.first = i;
      c.first_sim = element_text(kind, a);
      c.first_gpu = element_text(kind, b);
    }
    if (!any || d > c.worst_ulp) {
      c.worst_ulp = c.max_ulp = d;
      c.worst = i;
      c.worst_sim = element_text(kind, a);
      c.worst_gpu = element_text(kind, b);
    }
    any = true;
  }
  const std::size_t whole = c.elements * size;
  if (sim.size() != gpu.size() ||
      std::memcmp(sim.data() + whole, gpu.data() + whole, bytes - whole) != 0) {
    c.tail_differs = true;
    c.max_ulp = kInfiniteUlp;
  }
  return c;
}

std::string describe(const ElementComparison& c, ElementKind kind) {
  std::string s;
  if (c.differing == 0) s = fmt::format("all {} {} equal", c.elements, element_plural(kind));
  else if (kind == ElementKind::Bytes)
    s = fmt::format("{} of {} bytes differ, first at [{}] ({} vs {})", c.differing, c.elements, c.first, c.first_sim,
                    c.first_gpu);
  else {
    s = fmt::format("{} of {} {} differ, max {} at [{}] ({} vs {})", c.differing, c.elements, element_plural(kind),
                    format_ulp(c.worst_ulp), c.worst, c.worst_sim, c.worst_gpu);
    if (c.first != c.worst) s += fmt::format(", first at [{}] ({} vs {})", c.first, c.first_sim, c.first_gpu);
  }
  if (c.tail_differs) s += fmt::format("; the bytes after the last whole {} differ", element_plural(kind));
  return s;
}

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
      v.memory_detail = allocation_difference(sim[i], gpu[i], v.differing_allocations);
      v.memory_same = v.memory_detail.empty();
      if (v.memory_same)
        v.memory_detail = fmt::format("{} allocation{} bit-identical", sim[i].allocations.size(),
                                      sim[i].allocations.size() == 1 ? "" : "s");
    }
    out.push_back(std::move(v));
  }
  return out;
}

namespace {

// The dumps in one directory: for each allocation, the launches after which it was dumped.
struct DumpIndex {
  std::filesystem::path dir;
  std::map<std::uint64_t, std::vector<unsigned>> launches;  // ascending

  explicit DumpIndex(const std::filesystem::path& d) : dir(d) {
    std::error_code ec;
    if (d.empty() || !std::filesystem::is_directory(d, ec)) return;
    for (const auto& e : std::filesystem::directory_iterator(d, ec)) {
      unsigned launch = 0;
      unsigned long long id = 0;
      char tail = 0;
      const std::string name = e.path().filename().string();
      if (std::sscanf(name.c_str(), "launch-%u-alloc-%llu.bi%c", &launch, &id, &tail) == 3 && tail == 'n' &&
          name.size() > 4 && name.ends_with(".bin"))
        launches[id].push_back(launch);
    }
    for (auto& [id, l] : launches) std::sort(l.begin(), l.end());
  }

  // The bytes of allocation `id` as digested after `launch`: the newest dump at or
  // before it, which must match `hash` (else, or when there is none, nullopt and why).
  std::optional<std::vector<unsigned char>> read(unsigned launch, std::uint64_t id, std::uint64_t bytes,
                                                 const std::string& hash, const char* side, std::string& why) const {
    if (dir.empty()) {
      why = fmt::format("no dumps from the {}", side);
      return std::nullopt;
    }
    auto it = launches.find(id);
    const unsigned* at = nullptr;
    if (it != launches.end())
      for (const unsigned& l : it->second)
        if (l <= launch) at = &l;
    if (!at) {
      why = fmt::format("no dump of it from the {} (none in {} at or before launch {}; over the size cap? see "
                        "dump-notes.txt there)",
                        side, dir.string(), launch);
      return std::nullopt;
    }
    const auto path = dir / fmt::format("launch-{}-alloc-{}.bin", *at, id);
    std::ifstream f(path, std::ios::binary);
    std::vector<unsigned char> data(bytes);
    if (!f || !f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(bytes)) ||
        f.peek() != std::char_traits<char>::eof()) {
      why = fmt::format("{} is not {} bytes long", path.string(), bytes);
      return std::nullopt;
    }
    if (fmt::format("{:016x}", validate_dump::fnv1a(data.data(), data.size())) != hash) {
      why = fmt::format("the {}'s dump {} does not match its digest after launch {}", side, path.string(), launch);
      return std::nullopt;
    }
    return data;
  }
};

const AllocationDigest* find_allocation(const LaunchDigest& l, std::uint64_t id) {
  for (const AllocationDigest& a : l.allocations)
    if (a.id == id) return &a;
  return nullptr;
}

}  // namespace

void compare_dumps(std::vector<LaunchVerdict>& verdicts, const std::vector<LaunchDigest>& sim,
                   const std::vector<LaunchDigest>& gpu, const DumpComparison& how) {
  const DumpIndex sim_dumps(how.sim_dir), gpu_dumps(how.gpu_dir);
  for (std::size_t i = 0; i < verdicts.size() && i < sim.size() && i < gpu.size(); ++i) {
    LaunchVerdict& v = verdicts[i];
    if (v.memory_same || v.differing_allocations.empty()) continue;
    const unsigned launch = static_cast<unsigned>(i + 1);
    // Each allocation's comparison; the launch reads as its worst one (unmeasured first)
    // among those this launch wrote, on either side: an allocation that differs since
    // an earlier launch is that launch's finding, only counted here.
    auto written_here = [&](std::uint64_t id) {
      if (i == 0) return true;
      const AllocationDigest *before_s = find_allocation(sim[i - 1], id), *before_g = find_allocation(gpu[i - 1], id);
      const AllocationDigest *now_s = find_allocation(sim[i], id), *now_g = find_allocation(gpu[i], id);
      return !before_s || !before_g || before_s->hash != now_s->hash || before_g->hash != now_g->hash;
    };
    std::vector<std::uint64_t> order = v.differing_allocations;
    std::stable_partition(order.begin(), order.end(), written_here);
    const bool any_written_here = !order.empty() && written_here(order.front());
    std::string worst_detail, unmeasured;
    std::optional<std::uint64_t> launch_max;
    std::uint64_t others_max = 0;
    bool headline_set = false;
    for (std::uint64_t id : order) {
      const AllocationDigest *a = find_allocation(sim[i], id), *b = find_allocation(gpu[i], id);
      if (!a || !b) continue;  // compare_memory only lists allocations both sides have
      std::string why;
      auto s = sim_dumps.read(launch, id, a->bytes, a->hash, "simulator", why);
      auto g = s ? gpu_dumps.read(launch, id, b->bytes, b->hash, "GPU", why) : std::nullopt;
      if (!s || !g) {
        if (unmeasured.empty()) unmeasured = fmt::format("alloc #{} ({} B) differs; {}", id, a->bytes, why);
        continue;
      }
      const ElementComparison c = compare_elements(*s, *g, how.kind);
      const bool may_headline = !any_written_here || written_here(id);
      if (may_headline && (!headline_set || c.max_ulp > *launch_max)) {
        if (launch_max) others_max = std::max(others_max, *launch_max);
        launch_max = c.max_ulp;
        worst_detail = fmt::format("alloc #{}: {}", id, describe(c, how.kind));
        headline_set = true;
      } else {
        others_max = std::max(others_max, c.max_ulp);
      }
    }
    if (launch_max) launch_max = std::max(*launch_max, others_max);
    v.max_ulp = launch_max;
    v.within_bound = unmeasured.empty() && launch_max && how.max_ulp && *launch_max <= *how.max_ulp;
    const std::size_t n = v.differing_allocations.size();
    std::string detail = unmeasured.empty() ? worst_detail : unmeasured;
    if (n > 1)
      detail += launch_max && unmeasured.empty()
                    ? fmt::format("; {} more allocation{} differ{}, max {}", n - 1, n == 2 ? "" : "s",
                                  n == 2 ? "s" : "", format_ulp(others_max))
                    : fmt::format("; {} more allocation{} differ{}", n - 1, n == 2 ? "" : "s", n == 2 ? "s" : "");
    v.memory_detail = detail;
  }
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
