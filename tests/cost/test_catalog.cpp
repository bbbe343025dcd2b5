// The catalog loads, every device has the fields the cost model needs, malformed
// entries are rejected with a message naming file, entry and field, and unknown
// names get a near-miss suggestion.
#include "cost/catalog/catalog.hpp"
#include "util/near_miss.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

using namespace simt::cost;

namespace {

// Message of the exception `f` throws, or "" when it does not throw.
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// A minimal valid catalog with one device; `device_patch` is spliced into the
// device object so a test can break exactly one field.
std::string mini_catalog(const std::string& device_fields) {
  return R"({"sources": {"ds": {"title": "Test datasheet", "url": "https://example.com/ds"}},
  "devices": [{"name": "TestGPU", "full_name": "Test GPU", "arch": "Test", "compute_capability": "9.0",
    )" + device_fields + R"(}],
  "links": [{"name": "TestLink", "full_name": "t", "bandwidth_gbs": {"value": 100, "src": "ds"},
             "latency_us": {"value": 2, "src": "ds"}}]})";
}

const std::string kGoodFields = R"(
    "sm_count": {"value": 100, "src": "ds"}, "boost_clock_mhz": {"value": 1500, "src": "ds"},
    "warp_size": {"value": 32, "src": "ds"}, "max_threads_per_block": {"value": 1024, "src": "ds"},
    "max_threads_per_sm": {"value": 2048, "src": "ds"}, "registers_per_sm": {"value": 65536, "src": "ds"},
    "shared_per_sm_kib": {"value": 228, "src": "ds"}, "shared_per_block_kib": {"value": 48, "src": "ds"},
    "shared_per_block_optin_kib": {"value": 227, "src": "ds"}, "l2_mib": {"value": 50, "src": "ds"},
    "memory_gib": {"value": 80, "src": "ds"}, "memory_bandwidth_gbs": {"value": 2000, "src": "ds"},
    "tdp_w": {"value": 700, "src": "ds"},
    "peak_tflops": {"fp32": {"value": 50, "src": "ds", "note": "dense"}})";

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  REQUIRE(pos != std::string::npos);
  return s.replace(pos, from.size(), to);
}

}  // namespace

TEST_CASE("the built-in catalog has every device and link the issue lists") {
  const Catalog& c = Catalog::builtin();
  for (const char* name : {"V100-SXM2", "A100-40GB-SXM", "A100-80GB-SXM", "H100-SXM", "H100-PCIe", "H200",
                           "B200", "L40S", "RTX-A6000", "RTX-3090", "RTX-4090", "T4"}) {
    CAPTURE(name);
    const DeviceSpec& d = c.device(name);
    CHECK(d.hbm_bandwidth > 0);
    CHECK(d.hbm_bytes > 0);
    CHECK(d.peak.count("fp32") == 1);
    CHECK(d.warp_size == 32);
    CHECK(d.shared_per_block_bytes == 48 * 1024);
    CHECK(d.shared_per_block_optin_bytes >= d.shared_per_block_bytes);
    CHECK(d.shared_per_sm_bytes >= d.shared_per_block_optin_bytes);
    for (auto& field : d.fields) {  // not a structured binding: clang 14 cannot capture one in CAPTURE
      const std::string& key = field.first;
      const Sourced& f = field.second;
      CAPTURE(key);
      // Every number cites a URL, or simtlab's own measurement report in docs/validation/.
      CHECK((f.source.find("http") != std::string::npos || f.source.find("docs/validation/") != std::string::npos));
    }
  }
  for (const char* name : {"PCIe3-x16", "PCIe4-x16", "PCIe5-x16", "NVLink2", "NVLink3", "NVLink4", "NVLink5",
                           "IB-HDR", "IB-NDR", "Eth-400G"}) {
    CAPTURE(name);
    CHECK(c.link(name).bandwidth > 0);
    CHECK(c.link(name).latency_s > 0);
  }
}

TEST_CASE("catalog converts datasheet units to SI") {
  // H100 SXM datasheet: 3.35 TB/s, 80 GB HBM3, 50 MB L2, 228 KB shared/SM;
  // BF16 dense = 1979 TFLOPS sparse / 2.
  const DeviceSpec& h = Catalog::builtin().device("H100-SXM");
  CHECK(h.hbm_bandwidth == doctest::Approx(3.35e12));
  CHECK(h.hbm_bytes == doctest::Approx(80.0 * (1ull << 30)));
  CHECK(h.l2_bytes == doctest::Approx(50.0 * (1 << 20)));
  CHECK(h.shared_per_sm_bytes == doctest::Approx(228 * 1024));
  CHECK(h.peak.at("bf16").value == doctest::Approx(1979e12 / 2).epsilon(1e-3));
  CHECK(h.fields.at("memory_bandwidth_gbs").value == doctest::Approx(3350));
  // Volta has no bf16 units: asking for it names what exists.
  std::string err = error_of([] { Catalog::builtin().device("V100-SXM2").peak_for("bf16"); });
  CHECK(err.find("no published bf16 peak") != std::string::npos);
  CHECK(err.find("fp16") != std::string::npos);
}

TEST_CASE("a valid minimal catalog parses") {
  Catalog c = Catalog::parse(mini_catalog(kGoodFields), "mini.json");
  CHECK(c.device("TestGPU").sm_count == 100);
  CHECK(c.link("TestLink").latency_s == doctest::Approx(2e-6));
}

TEST_CASE("malformed entries name file, entry and field") {
  SUBCASE("missing field") {
    std::string bad = replace(kGoodFields, R"("sm_count": {"value": 100, "src": "ds"},)", "");
    std::string err = error_of([&] { Catalog::parse(mini_catalog(bad), "mini.json"); });
    CHECK(err == "mini.json: device 'TestGPU' (devices[0]): field 'sm_count': missing");
  }
  SUBCASE("wrong type") {
    std::string bad = replace(kGoodFields, R"({"value": 2000, "src": "ds"})", R"({"value": "fast", "src": "ds"})");
    std::string err = error_of([&] { Catalog::parse(mini_catalog(bad), "mini.json"); });
    CHECK(err.find("mini.json: device 'TestGPU' (devices[0]): field 'memory_bandwidth_gbs'") == 0);
    CHECK(err.find("expected a number, got string") != std::string::npos);
  }
  SUBCASE("unknown source key") {
    std::string bad = replace(kGoodFields, R"("tdp_w": {"value": 700, "src": "ds"})", R"("tdp_w": {"value": 700, "src": "nope"})");
    std::string err = error_of([&] { Catalog::parse(mini_catalog(bad), "mini.json"); });
    CHECK(err.find("field 'tdp_w': 'src' 'nope' is not a key") != std::string::npos);
  }
  SUBCASE("unknown precision") {
    std::string bad = replace(kGoodFields, R"("fp32": {)", R"("fp33": {)");
    std::string err = error_of([&] { Catalog::parse(mini_catalog(bad), "mini.json"); });
    CHECK(err.find("field 'peak_tflops.fp33': unknown precision") != std::string::npos);
  }
  SUBCASE("required value null") {
    std::string bad = replace(kGoodFields, R"("memory_gib": {"value": 80,)", R"("memory_gib": {"value": null,)");
    std::string err = error_of([&] { Catalog::parse(mini_catalog(bad), "mini.json"); });
    CHECK(err.find("field 'memory_gib': 'value' is null") != std::string::npos);
  }
  SUBCASE("not JSON") {
    std::string err = error_of([&] { Catalog::parse("{\"devices\": [", "mini.json"); });
    CHECK(err.find("mini.json: not valid JSON") == 0);
  }
  SUBCASE("missing file") {
    std::string err = error_of([&] { Catalog::load("/nonexistent/devices.json"); });
    CHECK(err.find("/nonexistent/devices.json") != std::string::npos);
  }
}

TEST_CASE("unknown names get a near-miss suggestion") {
  const Catalog& c = Catalog::builtin();
  CHECK(error_of([&] { c.device("H10"); }).find("unknown device 'H10'; did you mean 'H100-SXM'") == 0);
  CHECK(error_of([&] { c.device("A100-80"); }).find("did you mean 'A100-80GB-SXM'") != std::string::npos);
  CHECK(error_of([&] { c.link("NVLink6"); }).find("unknown link 'NVLink6'; did you mean 'NVLink") == 0);
  // Far from everything: list what exists instead of guessing.
  CHECK(error_of([&] { c.device("potato"); }).find("known: V100-SXM2") != std::string::npos);
  // Case and punctuation are forgiven when the match is unique.
  CHECK(c.device("h100 sxm").name == "H100-SXM");
  CHECK(c.device("rtx4090").name == "RTX-4090");
}

TEST_CASE("near_misses ranks prefixes before typos") {
  std::vector<std::string> names = {"gpt2-small", "gpt2-medium", "llama3-8b", "llama3-70b"};
  // One edit from both llama3 names: both offered, nothing else.
  auto near = simt::near_misses("llama3-7b", names);
  CHECK(near == std::vector<std::string>{"llama3-8b", "llama3-70b"});
  CHECK(simt::near_misses("gpt2-smal", names) == std::vector<std::string>{"gpt2-small"});
  CHECK(simt::near_misses("gpt2", names).size() == 2);
  CHECK(simt::near_misses("zzzzzzzz", names).empty());
}

TEST_CASE("TPUs beside GPUs: published per-chip figures, usable by the LLM cost model only") {
  const auto& cat = Catalog::builtin();
  // Google Cloud TPU pages (cloud.google.com/tpu/docs/v5e, v5p, v6e, tpu7x), key specifications.
  const auto& v5e = cat.accelerator("TPU-v5e");
  CHECK(v5e.peak_for("bf16").value == 197e12);
  CHECK(v5e.hbm_bandwidth == 819e9);
  CHECK(cat.accelerator("TPU-v5p").peak_for("bf16").value == 459e12);
  CHECK(cat.accelerator("TPU-v6e").hbm_bandwidth == 1638e9);
  const auto& ironwood = cat.accelerator("tpu7x");
  CHECK(ironwood.peak_for("fp8").value == 2 * ironwood.peak_for("bf16").value);
  CHECK(ironwood.hbm_bytes == 192.0 * (1ull << 30));
  // Not SIMT devices: the simulator's lookup does not return them.
  CHECK_THROWS(cat.device("TPU-v5e"));
  CHECK(cat.accelerator("H100-SXM").name == "H100-SXM");
  CHECK_THROWS_WITH(cat.accelerator("TPU-v9"), doctest::Contains("did you mean"));
}

TEST_CASE("GPU-hour prices are catalog data with a dated source") {
  const auto& cat = Catalog::builtin();
  int priced = 0;
  for (const auto* list : {&cat.devices(), &cat.tpus()})
    for (const auto& d : *list) {
      if (d.price_per_hour_usd == 0) continue;
      ++priced;
      const auto& f = d.fields.at("price_per_hour_usd");
      INFO(d.name);
      CHECK(d.price_per_hour_usd > 0.1);
      CHECK(d.price_per_hour_usd < 100);
      CHECK(f.source.find("http") != std::string::npos);
      CHECK(f.note.find("20") != std::string::npos);  // a year: prices are dated
    }
  CHECK(priced >= 6);
}

TEST_CASE("host_link names the link host<->device copies move over; a name not in links is an error") {
  const Catalog& c = Catalog::builtin();
  for (const DeviceSpec& d : c.devices()) {
    INFO(d.name);
    REQUIRE_FALSE(d.host_link.empty());
    CHECK(c.link(d.host_link).bandwidth > 0);
    CHECK(d.host_link_source.find("<http") != std::string::npos);
  }
  CHECK(c.device("H200").host_link == "PCIe5-x16");
  CHECK(c.device("T4").host_link == "PCIe3-x16");

  Catalog ok = Catalog::parse(mini_catalog(kGoodFields + R"(, "host_link": {"link": "TestLink", "src": "ds"})"), "mini.json");
  CHECK(ok.device("TestGPU").host_link == "TestLink");
  std::string err = error_of([&] {
    Catalog::parse(mini_catalog(kGoodFields + R"(, "host_link": {"link": "PCIe9", "src": "ds"})"), "mini.json");
  });
  CHECK(err.find("'host_link': 'PCIe9' is not a name in \"links\"") != std::string::npos);
  err = error_of([&] {
    Catalog::parse(mini_catalog(kGoodFields + R"(, "host_link": {"link": "TestLink", "src": "nope"})"), "mini.json");
  });
  CHECK(err.find("'src' 'nope' is not a key of \"sources\"") != std::string::npos);
}
