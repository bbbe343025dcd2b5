// Fits sim/math/tensor_core.hpp's accumulation to the H200's wmma outputs recorded by
// tests/cuda/wmma_probe.cu: for every candidate (group, window, cut, rounding), the
// number of output elements that differ, per configuration; then, with the chosen
// model, the differing elements per (configuration, kind) and their largest error.
//   c++ -std=c++20 -O2 -I. tests/cuda/wmma_fit.cpp -o wmma_fit && ./wmma_fit DIR [group window floor nearest]
#include "sim/math/tensor_core.hpp"

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

namespace {
using simt::math::tensor::Accumulation;
namespace narrow = simt::cuda::narrow;

struct Cfg {
  const char* name;
  int m, n, k;
  int in;   // 0 f16, 1 bf16, 2 tf32 (converted: rna), 3 tf32 raw
  int acc;  // 0 f32, 1 f16
};
const Cfg kCfgs[] = {{"f16_f32_m16n16k16", 16, 16, 16, 0, 0}, {"f16_f32_m32n8k16", 32, 8, 16, 0, 0},
                     {"f16_f32_m8n32k16", 8, 32, 16, 0, 0},   {"f16_f16_m16n16k16", 16, 16, 16, 0, 1},
                     {"f16_f16_m32n8k16", 32, 8, 16, 0, 1},   {"f16_f16_m8n32k16", 8, 32, 16, 0, 1},
                     {"bf16_f32_m16n16k16", 16, 16, 16, 1, 0}, {"bf16_f32_m32n8k16", 32, 8, 16, 1, 0},
                     {"bf16_f32_m8n32k16", 8, 32, 16, 1, 0},  {"tf32_f32_m16n16k8", 16, 16, 8, 2, 0},
                     {"tf32raw_f32_m16n16k8", 16, 16, 8, 3, 0}};
const char* kKinds[] = {"uniform", "wide", "pow2", "pow2_wide", "cancel", "c_big", "subnormal", "special", "zeros"};
constexpr int kTiles = 16;

// __float_to_tf32 (cvt.rna.tf32.f32): nearest, ties away from zero, 10 fraction bits.
std::uint32_t tf32_rna(std::uint32_t b) {
  if ((b & 0x7f800000u) == 0x7f800000u) return b;
  return (b + 0x1000u) & ~0x1fffu;
}
double input(std::uint32_t b, int in, bool raw_truncates) {
  if (in == 0) return narrow::to_double(std::uint16_t(b), narrow::kHalf);
  if (in == 1) return narrow::to_double(std::uint16_t(b), narrow::kBf16);
  if (in == 2) b = tf32_rna(b);
  if (in == 3 && raw_truncates && (b & 0x7f800000u) != 0x7f800000u) b &= ~0x1fffu;
  return simt::math::tensor::float_of(b);
}
std::uint32_t output(double exact, int acc, const Accumulation& m) {
  if (acc == 0) return simt::math::tensor::bits_of(simt::math::tensor::round_step(exact, m));
  if (std::isnan(exact)) return 0x7fff;
  return narrow::from_double(exact, narrow::kHalf, narrow::Round::Nearest);
}
double acc_in(std::uint32_t b, int acc) {
  return acc == 0 ? double(simt::math::tensor::float_of(b)) : narrow::to_double(std::uint16_t(b), narrow::kHalf);
}

struct Data {
  Cfg cfg;
  std::vector<std::uint32_t> words;
};

// Differing elements of (config, kind); max relative error into *err.
long compare(const Data& d, int kind, const Accumulation& m, bool raw_trunc, double* err) {
  const Cfg& c = d.cfg;
  const std::size_t per = c.m * c.k + c.k * c.n + 2 * c.m * c.n;
  long bad = 0;
  std::vector<double> a(c.k), b(c.k);
  const int emin = c.in == 0 ? -14 : -126;
  for (int t = 0; t < kTiles; ++t) {
    const std::uint32_t* w = d.words.data() + (kind * kTiles + t) * per;
    const std::uint32_t *A = w, *B = A + c.m * c.k, *C = B + c.k * c.n, *D = C + c.m * c.n;
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        for (int k = 0; k < c.k; ++k) a[k] = input(A[i * c.k + k], c.in, raw_trunc), b[k] = input(B[k * c.n + j], c.in, raw_trunc);
        const double r = simt::math::tensor::dot_exact(acc_in(C[i * c.n + j], c.acc), a.data(), b.data(), c.k, emin, m);
        const std::uint32_t got = output(r, c.acc, m), want = D[i * c.n + j];
        if (got != want) {
          ++bad;
          if (err) {
            const double g = acc_in(got, c.acc), h = acc_in(want, c.acc);
            const double e = h != 0 ? std::fabs(g - h) / std::fabs(h) : std::fabs(g - h);
            if (!(e <= *err)) *err = e;
          }
        }
      }
  }
  return bad;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  std::vector<Data> data;
  for (const Cfg& c : kCfgs) {
    std::ifstream f(dir + "/" + c.name + ".bin", std::ios::binary);
    Data d{c, {}};
    d.words.assign(std::istreambuf_iterator<char>(f), {});
    std::vector<std::uint32_t> w(d.words.size() / 4);
    std::ifstream g(dir + "/" + c.name + ".bin", std::ios::binary);
    g.read(reinterpret_cast<char*>(w.data()), w.size() * 4);
    d.words = w;
    data.push_back(d);
  }
  if (argc > 5) {  // the chosen model: every (config, kind)
    const Accumulation m{std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]) != 0, std::atoi(argv[5]) != 0};
    for (const Data& d : data)
      for (int kind = 0; kind < 9; ++kind) {
        double err = 0;
        const long bad = compare(d, kind, m, true, &err);
        std::printf("%-22s %-10s %5ld of %5d differ, max rel error %.3g\n", d.cfg.name, kKinds[kind], bad,
                    kTiles * d.cfg.m * d.cfg.n, err);
      }
    return 0;
  }
  for (const Data& d : data) {
    long best = -1;
    std::string best_name;
    for (int group : {1, 2, 4, 8, 16})
      for (int window = 22; window <= 30; ++window)
        for (int fl = 0; fl < 2; ++fl)
          for (int nearest = 0; nearest < 2; ++nearest) {
            const Accumulation m{group, window, fl != 0, nearest != 0};
            long bad = 0;
            for (int kind : {0, 1, 2, 3, 4, 5}) bad += compare(d, kind, m, true, nullptr);
            char buf[96];
            std::snprintf(buf, sizeof buf, "group %d window %d %s %s; ", group, window, fl ? "floor" : "trunc",
                          nearest ? "nearest" : "zero");
            if (best < 0 || bad < best) best = bad, best_name.clear();
            if (bad == best) best_name += buf;  // every candidate as good as the best: is the fit unique?
          }
    std::printf("%-22s %ld differ (kinds uniform..c_big) with: %s\n", d.cfg.name, best, best_name.c_str());
  }
}
