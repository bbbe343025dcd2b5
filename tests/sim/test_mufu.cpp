// sim/math against the H200: the MUFU model and CUDA's math functions on the host
// must reproduce the hashes tests/cuda/mufu_probe.cu computed from the GPU's own
// results (docs/validation/h200-mufu.md). Each hash covers 2^24 consecutive inputs;
// the test checks the chunks holding the common arguments, SIMT_MUFU_ALL_CHUNKS=1
// all 256 (every 32-bit input, hours on one core for the 63 functions); the double
// functions check the first of 256 chunks of 2^24 mixed inputs, all with that variable.
#include "sim/math/cuda_math.hpp"
#include "sim/math/mufu_tables.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace simt::mufu;

// The probe's hash: an order-free sum of a 64-bit mix of (input, result), NaN as 0x7fffffff.
unsigned long long mix(unsigned in, unsigned out) {
  if ((out & 0x7fffffffu) > 0x7f800000u) out = 0x7fffffffu;
  unsigned long long z = (static_cast<unsigned long long>(in) << 32 | out) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

using Model = float (*)(float);

Model model(const std::string& fn) {
  static const Tables& t = tables(kEx2 | kRcp | kRsq | kLg2 | kSin);
  static const std::map<std::string, Model> models = {
      {"ex2.approx.ftz", [](float x) { return float_of(ex2(t, bits_of(x))); }},
      {"rcp.approx.ftz", [](float x) { return float_of(rcp(t, bits_of(x))); }},
      {"rsqrt.approx.ftz", [](float x) { return float_of(rsq(t, bits_of(x))); }},
      {"expf", [](float x) { return simt::mufu::expf(t, x); }},
      {"__expf", [](float x) { return fast_expf(t, x); }},
      {"exp2f", [](float x) { return simt::mufu::exp2f(t, x); }},
      {"rsqrtf", [](float x) { return simt::mufu::rsqrtf(t, x); }},
      {"tanhf", [](float x) { return simt::mufu::tanhf(t, x); }},
      {"logf", [](float x) { return simt::mufu::logf(x); }},
      {"__fdividef(3,x)", [](float x) { return fdividef(t, 3.0f, x); }},
      {"__fdividef(x,0.75)", [](float x) { return fdividef(t, x, 0.75f); }},
      {"lg2.approx.ftz", [](float x) { return float_of(lg2(t, bits_of(x))); }},
      {"__log2f", [](float x) { return fast_log2f(t, x); }},
      {"__logf", [](float x) { return fast_logf(t, x); }},
      {"__log10f", [](float x) { return fast_log10f(t, x); }},
      {"__powf(x,2.5)", [](float x) { return fast_powf(t, x, 2.5f); }},
      {"__powf(1.7,x)", [](float x) { return fast_powf(t, 1.7f, x); }},
      {"sin.approx.ftz", [](float x) { return float_of(sin_cos(t, bits_of(x), false)); }},
      {"cos.approx.ftz", [](float x) { return float_of(sin_cos(t, bits_of(x), true)); }},
      {"__sinf", [](float x) { return fast_sinf(t, x); }},
      {"__cosf", [](float x) { return fast_cosf(t, x); }},
      {"__tanf", [](float x) { return fast_tanf(t, x); }},
      {"sinf", [](float x) { return simt::mufu::sinf(x); }},
      {"cosf", [](float x) { return simt::mufu::cosf(x); }},
      {"sincosf.sin", [](float x) { float s, c; simt::mufu::sincosf(x, &s, &c); return s; }},
      {"sincosf.cos", [](float x) { float s, c; simt::mufu::sincosf(x, &s, &c); return c; }},
      {"tanf", [](float x) { return simt::mufu::tanf(t, x); }},
      {"coshf", [](float x) { return simt::mufu::coshf(t, x); }},
      {"sinhf", [](float x) { return simt::mufu::sinhf(t, x); }},
      {"erff", [](float x) { return simt::mufu::erff(t, x); }},
      {"erfcf", [](float x) { return simt::mufu::erfcf(t, x); }},
      {"log2f", [](float x) { return simt::mufu::log2f(x); }},
      {"log10f", [](float x) { return simt::mufu::log10f(x); }},
      {"log1pf", [](float x) { return simt::mufu::log1pf(x); }},
      {"expm1f", [](float x) { return simt::mufu::expm1f(t, x); }},
      {"exp10f", [](float x) { return simt::mufu::exp10f(t, x); }},
      {"atanf", [](float x) { return simt::mufu::atanf(t, x); }},
      {"asinf", [](float x) { return simt::mufu::asinf(t, x); }},
      {"acosf", [](float x) { return simt::mufu::acosf(t, x); }},
      {"cbrtf", [](float x) { return simt::mufu::cbrtf(t, x); }},
      {"rcbrtf", [](float x) { return simt::mufu::rcbrtf(t, x); }},
      {"atan2f(1,x)", [](float x) { return simt::mufu::atan2f(1.0f, x); }},
      {"atan2f(-0.3,x)", [](float x) { return simt::mufu::atan2f(-0.3f, x); }},
      {"atan2f(7.5e5,x)", [](float x) { return simt::mufu::atan2f(7.5e5f, x); }},
      {"atan2f(0,x)", [](float x) { return simt::mufu::atan2f(0.0f, x); }},
      {"atan2f(y,1)", [](float y) { return simt::mufu::atan2f(y, 1.0f); }},
      {"atan2f(y,-2)", [](float y) { return simt::mufu::atan2f(y, -2.0f); }},
      {"atan2f(y,1e-6)", [](float y) { return simt::mufu::atan2f(y, 1e-6f); }},
      {"hypotf(x,1)", [](float x) { return simt::mufu::hypotf(x, 1.0f); }},
      {"hypotf(x,3e-5)", [](float x) { return simt::mufu::hypotf(x, 3e-5f); }},
      {"hypotf(x,1e30)", [](float x) { return simt::mufu::hypotf(x, 1e30f); }},
      {"hypotf(x,0)", [](float x) { return simt::mufu::hypotf(x, 0.0f); }},
      {"hypotf(-2.5,y)", [](float y) { return simt::mufu::hypotf(-2.5f, y); }},
      {"powf(x,0.5)", [](float x) { return simt::mufu::powf(t, x, 0.5f); }},
      {"powf(x,2)", [](float x) { return simt::mufu::powf(t, x, 2.0f); }},
      {"powf(x,-1.5)", [](float x) { return simt::mufu::powf(t, x, -1.5f); }},
      {"powf(x,3.7)", [](float x) { return simt::mufu::powf(t, x, 3.7f); }},
      {"powf(x,0.001)", [](float x) { return simt::mufu::powf(t, x, 0.001f); }},
      {"powf(x,3)", [](float x) { return simt::mufu::powf(t, x, 3.0f); }},
      {"powf(2,y)", [](float y) { return simt::mufu::powf(t, 2.0f, y); }},
      {"powf(0.7,y)", [](float y) { return simt::mufu::powf(t, 0.7f, y); }},
      {"powf(-3,y)", [](float y) { return simt::mufu::powf(t, -3.0f, y); }},
      {"powf(10,y)", [](float y) { return simt::mufu::powf(t, 10.0f, y); }},
  };
  auto it = models.find(fn);
  REQUIRE_MESSAGE(it != models.end(), "no model for " << fn);
  return it->second;
}

std::map<std::string, std::vector<unsigned long long>> gpu_hashes(const char* file = SIMT_MUFU_HASHES) {
  std::map<std::string, std::vector<unsigned long long>> h;
  std::ifstream in(file);
  REQUIRE(in);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto last = line.rfind(' '), before = line.rfind(' ', last - 1);
    const std::string name = line.substr(0, before);
    const unsigned chunk = std::stoul(line.substr(before + 1, last - before - 1));
    auto& v = h[name];
    v.resize(256);
    v[chunk] = std::stoull(line.substr(last + 1), nullptr, 16);
  }
  return h;
}

unsigned long long host_hash(const std::string& fn, unsigned chunk) {
  const Model f = model(fn);
  unsigned long long h = 0;
  for (unsigned i = 0; i < (1u << 24); ++i) {
    const unsigned in = chunk << 24 | i;
    h += mix(in, bits_of(f(float_of(in))));
  }
  return h;
}

// Double precision: the probe's inputs (double_input in tests/cuda/mufu_probe.cu) and
// its hash of (k, result bits), any NaN as 0x7fffffffffffffff.
unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
double double_input(int fn, unsigned k) {
  const unsigned long long z = mix64((static_cast<unsigned long long>(fn + 1) << 32) | k);
  unsigned long long b = z;
  if ((z >> 60) != 0) {
    const unsigned long long m = z & 0xfffffffffffffull;
    unsigned long long sign = (z >> 52) & 1;
    const unsigned r = static_cast<unsigned>((z >> 53) & 0x7f);
    unsigned e;
    if (fn == 0) {
      e = 1023 - 40 + r % 50;
    } else if (fn == 1) {
      e = static_cast<unsigned>((z >> 53) & 0x7ff);
      sign = 0;
    } else {
      e = 1023 - 30 + r % 36;
    }
    b = sign << 63 | static_cast<unsigned long long>(e) << 52 | m;
  }
  return double_of(b);
}
unsigned long long double_hash(int fn, unsigned chunk) {
  const Tables& t = tables(kEx2 | kRcp);
  unsigned long long h = 0;
  for (unsigned i = 0; i < (1u << 24); ++i) {
    const unsigned k = chunk << 24 | i;
    const double x = double_input(fn, k);
    const double r = fn == 0 ? simt::mufu::exp(x) : fn == 1 ? simt::mufu::log(t, x) : simt::mufu::tanh(t, x);
    unsigned long long b = bits_of(r);
    if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) b = 0x7fffffffffffffffull;
    h += mix64(mix64(b) ^ (static_cast<unsigned long long>(k) * 0xd1342543de82ef95ull));
  }
  return h;
}

}  // namespace

TEST_CASE("MUFU model: the measured tables decode to the GPU's known values") {
  const Tables& t = tables(kEx2 | kRcp | kRsq);
  CHECK(ex2(t, bits_of(0.0f)) == bits_of(1.0f));
  CHECK(ex2(t, bits_of(1.0f)) == bits_of(2.0f));
  CHECK(ex2(t, bits_of(-1.0f)) == bits_of(0.5f));
  CHECK(rcp(t, bits_of(4.0f)) == bits_of(0.25f));
  CHECK(rsq(t, bits_of(4.0f)) == bits_of(0.5f));
  CHECK(rsq(t, bits_of(-4.0f)) == kNaN);
  CHECK(rcp(t, bits_of(-0.0f)) == (kSign | kInf));
  // Approximations: not the correctly rounded values everywhere.
  unsigned differ = 0;
  for (unsigned k = 0; k < 4096; ++k) {
    const float m = 1.0f + float(k) / 4096.0f;
    differ += rcp(t, bits_of(m)) != bits_of(1.0f / m);
  }
  CHECK(differ > 0);
}

TEST_CASE("CUDA math functions: the H200's bits over whole chunks of inputs") {
  const auto gpu = gpu_hashes();
  REQUIRE(gpu.size() == 63);
  const bool all = std::getenv("SIMT_MUFU_ALL_CHUNKS") != nullptr;
  // 0x3f: [0.5, 2); 0xbf: (-2, -0.5]; 0x42: [32, 128); 0xc2: (-128, -32]; 0x00:
  // zeros and subnormals; 0x7f: the largest floats, inf and NaN.
  const std::vector<unsigned> common = {0x00, 0x3f, 0xbf, 0x42, 0xc2, 0x7f};
  // The functions added later check fewer chunks in a normal run (each chunk is
  // 2^24 evaluations): [0.5, 2) and, for the sine family, the largest floats (the
  // Payne-Hanek reduction), inf and NaN.
  const std::set<std::string> first = {"ex2.approx.ftz", "rcp.approx.ftz", "rsqrt.approx.ftz", "expf", "__expf", "exp2f",
                                       "rsqrtf", "tanhf", "logf", "__fdividef(3,x)", "__fdividef(x,0.75)"};
  const std::set<std::string> sines = {"sinf",   "cosf",   "sincosf.sin",    "sincosf.cos",   "tanf",
                                       "__sinf", "__cosf", "sin.approx.ftz", "cos.approx.ftz", "__tanf"};
  for (const auto& [fn, hashes] : gpu) {
    std::vector<unsigned> chunks = common;
    if (!first.count(fn)) chunks = sines.count(fn) ? std::vector<unsigned>{0x3f, 0x7f} : std::vector<unsigned>{0x3f};
    if (all) {
      chunks.clear();
      for (unsigned c = 0; c < 256; ++c) chunks.push_back(c);
    }
    for (unsigned c : chunks) {
      INFO(fn << ", inputs 0x" << std::hex << (c << 24) << " to 0x" << ((c << 24) | 0xffffffu));
      CHECK(host_hash(fn, c) == hashes[c]);
    }
  }
}

TEST_CASE("CUDA's double exp, log, tanh: the H200's bits at the probe's mixed inputs") {
  const auto gpu = gpu_hashes(SIMT_MUFU_DOUBLE_HASHES);
  REQUIRE(gpu.size() == 3);
  const bool all = std::getenv("SIMT_MUFU_ALL_CHUNKS") != nullptr;
  const char* const names[] = {"exp", "log", "tanh"};
  for (int fn = 0; fn < 3; ++fn) {
    const auto& hashes = gpu.at(names[fn]);
    for (unsigned c = 0; c < (all ? 256u : 1u); ++c) {
      INFO(names[fn] << ", inputs " << (c << 24) << " to " << ((c << 24) | 0xffffffu));
      CHECK(double_hash(fn, c) == hashes[c]);
    }
  }
}
