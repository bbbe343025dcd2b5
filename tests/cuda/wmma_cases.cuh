// The tensor-core tiles whose outputs are compared bit for bit between an H200 and
// the simulator (docs/validation/h200-tensor-cores.md): for every wmma shape and
// type simtlab supports, tiles of nine kinds (random, wide exponents, powers of
// two, cancellation, a dominant accumulator, subnormals, inf/nan, signed zeros),
// made by a fixed generator, one warp per tile, the four combinations of row- and
// column-major operands. Plain CUDA: tests/cuda/wmma_probe.cu runs it with nvcc,
// tests/sim/test_wmma.cu on the simulator.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace wmma_cases {
using namespace nvcuda;

enum class In { F16, BF16, S8, U8, TF32, TF32Raw };
enum class Acc { F32, F16, S32 };
struct Config {
  const char* name;
  int m, n, k;
  In in;
  Acc acc;
};
// TF32Raw: the fragments keep the loaded floats' low bits (no __float_to_tf32): what
// the tensor core does with them is measured too.
inline constexpr Config kConfigs[] = {
    {"f16_f32_m16n16k16", 16, 16, 16, In::F16, Acc::F32},   {"f16_f32_m32n8k16", 32, 8, 16, In::F16, Acc::F32},
    {"f16_f32_m8n32k16", 8, 32, 16, In::F16, Acc::F32},     {"f16_f16_m16n16k16", 16, 16, 16, In::F16, Acc::F16},
    {"f16_f16_m32n8k16", 32, 8, 16, In::F16, Acc::F16},     {"f16_f16_m8n32k16", 8, 32, 16, In::F16, Acc::F16},
    {"bf16_f32_m16n16k16", 16, 16, 16, In::BF16, Acc::F32}, {"bf16_f32_m32n8k16", 32, 8, 16, In::BF16, Acc::F32},
    {"bf16_f32_m8n32k16", 8, 32, 16, In::BF16, Acc::F32},   {"s8_s32_m16n16k16", 16, 16, 16, In::S8, Acc::S32},
    {"s8_s32_m32n8k16", 32, 8, 16, In::S8, Acc::S32},       {"s8_s32_m8n32k16", 8, 32, 16, In::S8, Acc::S32},
    {"u8_s32_m16n16k16", 16, 16, 16, In::U8, Acc::S32},     {"u8_s32_m32n8k16", 32, 8, 16, In::U8, Acc::S32},
    {"u8_s32_m8n32k16", 8, 32, 16, In::U8, Acc::S32},       {"tf32_f32_m16n16k8", 16, 16, 8, In::TF32, Acc::F32},
    {"tf32raw_f32_m16n16k8", 16, 16, 8, In::TF32Raw, Acc::F32},
};
inline constexpr int kConfigCount = sizeof(kConfigs) / sizeof(kConfigs[0]);
inline constexpr const char* kKinds[] = {"uniform", "wide", "pow2", "pow2_wide", "cancel",
                                         "c_big", "subnormal", "special", "zeros"};
inline constexpr int kKindCount = 9;
inline constexpr int kTilesPerKind = 16;  // a multiple of 4: each layout combination alike

// ---- the generator: splitmix64, element bits built from sign, exponent, mantissa ----
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + int(next() % std::uint64_t(hi - lo + 1)); }  // [lo, hi]
  bool one_in(int n) { return next() % std::uint64_t(n) == 0; }
};

struct Format {
  int ebits, mbits;
  int bias() const { return (1 << (ebits - 1)) - 1; }
  int emin() const { return 1 - bias(); }
  int emax() const { return bias(); }
  std::uint32_t inf() const { return ((1u << ebits) - 1) << mbits; }
  std::uint32_t nan() const { return inf() | (1u << (mbits - 1)); }
  std::uint32_t sign() const { return 1u << (ebits + mbits); }
  // ±(1.m)·2^e, exactly: subnormal below emin (low bits shifted out), clamped above emax.
  std::uint32_t bits(bool neg, int e, std::uint32_t m) const {
    m &= (1u << mbits) - 1;
    std::uint32_t b;
    if (e > emax()) e = emax();
    if (e >= emin()) b = std::uint32_t(e + bias()) << mbits | m;
    else if (emin() - e > mbits) b = 0;
    else b = ((1u << mbits) | m) >> (emin() - e);
    return neg ? b | sign() : b;
  }
};
inline constexpr Format kF16{5, 10}, kBF16{8, 7}, kF32{8, 23};

inline Format input_format(In in) { return in == In::F16 ? kF16 : in == In::BF16 ? kBF16 : kF32; }
inline Format acc_format(Acc acc) { return acc == Acc::F16 ? kF16 : kF32; }
inline bool integer(In in) { return in == In::S8 || in == In::U8; }
inline int in_bytes(In in) { return integer(in) ? 1 : (in == In::F16 || in == In::BF16) ? 2 : 4; }
inline int acc_bytes(Acc acc) { return acc == Acc::F16 ? 2 : 4; }

// One tile, logical (row-major) element bits, widened to 32 bits.
struct Tile {
  std::vector<std::uint32_t> a, b, c;  // m x k, k x n, m x n
};

// A float element of kind `kind`; `wide` is the exponent half-range that stays finite.
inline std::uint32_t float_element(Rng& r, const Format& f, int kind, bool accumulator, int wide) {
  const bool neg = r.one_in(2);
  const std::uint32_t m = std::uint32_t(r.next());
  switch (kind) {
    case 1: return f.bits(neg, accumulator ? r.range(-2 * wide, 2 * wide) : r.range(-wide, wide), m);
    case 2: return r.one_in(4) && accumulator ? 0 : f.bits(neg, accumulator ? r.range(-8, 8) : r.range(-6, 6), 0);
    case 3: {
      const std::uint32_t one_bit = r.one_in(2) ? 0 : 1u << r.range(0, f.mbits - 1);
      const int e = accumulator ? r.range(-2 * wide, 2 * wide) : r.range(-wide, wide);
      return f.bits(neg, e, one_bit);
    }
    case 4: return f.bits(neg, accumulator ? r.range(-12, -6) : r.range(-2, 2), m);
    case 5: return f.bits(neg, accumulator ? r.range(8, f.emax()) : r.range(-2, 1), m);
    case 6:
      if (r.one_in(4)) return f.bits(neg, r.range(-2, 1), m);
      return f.bits(neg, r.range(f.emin() - f.mbits, f.emin() + 2), m);
    case 7:
      if (r.one_in(16)) return r.one_in(3) ? f.nan() : (neg ? f.inf() | f.sign() : f.inf());
      if (r.one_in(8)) return f.bits(neg, r.range(f.emax() - 3, f.emax()), m);  // products that overflow
      return f.bits(neg, r.range(-2, 1), m);
    case 8:
      if (r.one_in(2)) return neg ? f.sign() : 0;
      return f.bits(neg, r.range(-2, 1), m);
    default: return f.bits(neg, accumulator ? r.range(-2, 2) : r.range(-2, 1), m);
  }
}

inline std::uint32_t int_element(Rng& r, In in, int kind, bool accumulator) {
  if (accumulator) {
    if (kind >= 5) return std::uint32_t(r.one_in(2) ? 0x7fffff00u + r.range(0, 255) : 0x80000000u + r.range(0, 255));
    return std::uint32_t(r.range(-100000, 100000));
  }
  if (kind % 2) {  // extremes: the largest products, to wrap the int32 sum
    const int pick = r.range(0, 3);
    if (in == In::U8) return pick == 0 ? 0 : 255;
    return pick == 0 ? 0 : pick == 1 ? 127 : 0x80;  // -128
  }
  return std::uint32_t(r.next() & 0xff);
}

inline Tile make_tile(const Config& cfg, int kind, int index) {
  Rng r{0x5eedull * 1000003 + std::uint64_t(&cfg - kConfigs) * 7919 + std::uint64_t(kind) * 104729 + std::uint64_t(index)};
  Tile t;
  t.a.resize(cfg.m * cfg.k), t.b.resize(cfg.k * cfg.n), t.c.resize(cfg.m * cfg.n);
  const Format fi = input_format(cfg.in), fc = acc_format(cfg.acc);
  const int wide = cfg.in == In::F16 ? 7 : 20;
  for (auto* v : {&t.a, &t.b})
    for (auto& x : *v) x = integer(cfg.in) ? int_element(r, cfg.in, kind, false) : float_element(r, fi, kind, false, wide);
  for (auto& x : t.c)
    x = integer(cfg.in) ? int_element(r, cfg.in, kind, true)
                        : float_element(r, fc, kind, true, cfg.acc == Acc::F16 ? 7 : 20);
  if (kind == 4 && !integer(cfg.in)) {  // cancellation: the second half of k undoes the first, nearly
    const int h = cfg.k / 2;
    for (int i = 0; i < cfg.m; ++i)
      for (int k = h; k < cfg.k; ++k) t.a[i * cfg.k + k] = t.a[i * cfg.k + k - h];
    for (int k = h; k < cfg.k; ++k)
      for (int j = 0; j < cfg.n; ++j)
        t.b[k * cfg.n + j] = (t.b[(k - h) * cfg.n + j] ^ fi.sign()) ^ std::uint32_t(r.next() & 3);
  }
  return t;
}

// ---- device side: one warp per tile ------------------------------------------------
template <In I> struct InTypes;
template <> struct InTypes<In::F16> { using Frag = half; using Mem = half; };
template <> struct InTypes<In::BF16> { using Frag = __nv_bfloat16; using Mem = __nv_bfloat16; };
template <> struct InTypes<In::S8> { using Frag = signed char; using Mem = signed char; };
template <> struct InTypes<In::U8> { using Frag = unsigned char; using Mem = unsigned char; };
template <> struct InTypes<In::TF32> { using Frag = wmma::precision::tf32; using Mem = float; };
template <> struct InTypes<In::TF32Raw> { using Frag = wmma::precision::tf32; using Mem = float; };
template <Acc A> struct AccType;
template <> struct AccType<Acc::F32> { using T = float; };
template <> struct AccType<Acc::F16> { using T = half; };
template <> struct AccType<Acc::S32> { using T = int; };

// The leading dimension of a rows x cols matrix stored row- or column-major, padded
// to 16 elements (wmma's ldm rules: a multiple of 16 bytes).
__host__ __device__ inline int ldm_of(int rows, int cols, bool row_major) {
  const int d = row_major ? cols : rows;
  return (d + 15) / 16 * 16;
}
__host__ __device__ inline int padded_size(int rows, int cols, bool row_major) {
  return ldm_of(rows, cols, row_major) * (row_major ? rows : cols);
}

// Tile q*4 + combo of the batch, combo = blockIdx.y: A row/col, B row/col, C and D
// stored row- or column-major (combo 0: row, col, row; 1: col, row, col; 2: row, row,
// col; 3: col, col, row).
template <int M, int N, int K, In I, Acc C, class LA, class LB, bool kRowC>
__global__ void mma_tiles(const typename InTypes<I>::Mem* a, const typename InTypes<I>::Mem* b,
                          const typename AccType<C>::T* c, typename AccType<C>::T* d) {
  using Frag = typename InTypes<I>::Frag;
  using T = typename AccType<C>::T;
  constexpr bool a_row = std::is_same_v<LA, wmma::row_major>, b_row = std::is_same_v<LB, wmma::row_major>;
  const int tile = blockIdx.x;
  a += tile * padded_size(M, K, a_row);
  b += tile * padded_size(K, N, b_row);
  c += tile * padded_size(M, N, kRowC);
  d += tile * padded_size(M, N, kRowC);
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, T> fc;
  const auto layout_c = kRowC ? wmma::mem_row_major : wmma::mem_col_major;
  wmma::load_matrix_sync(fa, a, ldm_of(M, K, a_row));
  wmma::load_matrix_sync(fb, b, ldm_of(K, N, b_row));
  wmma::load_matrix_sync(fc, c, ldm_of(M, N, kRowC), layout_c);
  if constexpr (I == In::TF32) {
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
  }
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, ldm_of(M, N, kRowC), layout_c);
}

// ---- host side ------------------------------------------------------------------------
template <class T> inline T from_bits(std::uint32_t b) {
  T v;
  std::memcpy(&v, &b, sizeof(T));  // little-endian: the low bytes
  return v;
}
template <class T> inline std::uint32_t to_bits(const T& v) {
  std::uint32_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// A logical rows x cols matrix of element bits, stored in layout `row_major` with padding.
template <class T>
inline void store(std::vector<T>& out, std::size_t at, const std::vector<std::uint32_t>& m, int rows, int cols,
                  bool row_major) {
  const int ld = ldm_of(rows, cols, row_major);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) out[at + (row_major ? i * ld + j : j * ld + i)] = from_bits<T>(m[i * cols + j]);
}
template <class T>
inline std::vector<std::uint32_t> gather(const std::vector<T>& in, std::size_t at, int rows, int cols, bool row_major) {
  const int ld = ldm_of(rows, cols, row_major);
  std::vector<std::uint32_t> m(rows * cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m[i * cols + j] = to_bits(in[at + (row_major ? i * ld + j : j * ld + i)]);
  return m;
}

// The tiles of one (config, kind) and the D the device computed for each.
struct Result {
  std::vector<Tile> tiles;
  std::vector<std::vector<std::uint32_t>> d;
};

template <class Mem, class T, class Kernel>
void launch_combo(Kernel kernel, const Config& cfg, const std::vector<Tile>& tiles, int combo, Result& res) {
  const bool a_row = combo == 0 || combo == 2, b_row = combo == 1 || combo == 2, c_row = combo == 0 || combo == 3;
  std::vector<int> mine;
  for (int t = combo; t < int(tiles.size()); t += 4) mine.push_back(t);
  const std::size_t sa = padded_size(cfg.m, cfg.k, a_row), sb = padded_size(cfg.k, cfg.n, b_row),
                    sc = padded_size(cfg.m, cfg.n, c_row);
  std::vector<Mem> ha(sa * mine.size()), hb(sb * mine.size());
  std::vector<T> hc(sc * mine.size()), hd(sc * mine.size());
  for (std::size_t q = 0; q < mine.size(); ++q) {
    const Tile& t = tiles[mine[q]];
    store(ha, q * sa, t.a, cfg.m, cfg.k, a_row);
    store(hb, q * sb, t.b, cfg.k, cfg.n, b_row);
    store(hc, q * sc, t.c, cfg.m, cfg.n, c_row);
  }
  Mem *da, *db;
  T *dc, *dd;
  cudaMalloc(&da, ha.size() * sizeof(Mem));
  cudaMalloc(&db, hb.size() * sizeof(Mem));
  cudaMalloc(&dc, hc.size() * sizeof(T));
  cudaMalloc(&dd, hd.size() * sizeof(T));
  cudaMemcpy(da, ha.data(), ha.size() * sizeof(Mem), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), hb.size() * sizeof(Mem), cudaMemcpyHostToDevice);
  cudaMemcpy(dc, hc.data(), hc.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(dd, 0, hd.size() * sizeof(T));
  kernel<<<unsigned(mine.size()), 32>>>(da, db, dc, dd);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::fprintf(stderr, "%s combo %d: %s\n", cfg.name, combo, cudaGetErrorString(e));
  cudaMemcpy(hd.data(), dd, hd.size() * sizeof(T), cudaMemcpyDeviceToHost);
  for (std::size_t q = 0; q < mine.size(); ++q) res.d[mine[q]] = gather(hd, q * sc, cfg.m, cfg.n, c_row);
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dd);
}

template <int M, int N, int K, In I, Acc C> void run_config(const Config& cfg, int kind, Result& res) {
  using Mem = typename InTypes<I>::Mem;
  using T = typename AccType<C>::T;
  using R = wmma::row_major;
  using Cm = wmma::col_major;
  res.tiles.clear();
  for (int t = 0; t < kTilesPerKind; ++t) res.tiles.push_back(make_tile(cfg, kind, t));
  res.d.assign(res.tiles.size(), {});
  launch_combo<Mem, T>(mma_tiles<M, N, K, I, C, R, Cm, true>, cfg, res.tiles, 0, res);
  launch_combo<Mem, T>(mma_tiles<M, N, K, I, C, Cm, R, false>, cfg, res.tiles, 1, res);
  launch_combo<Mem, T>(mma_tiles<M, N, K, I, C, R, R, false>, cfg, res.tiles, 2, res);
  launch_combo<Mem, T>(mma_tiles<M, N, K, I, C, Cm, Cm, true>, cfg, res.tiles, 3, res);
}

// Runs config `i`, kind `kind` on whatever device the build targets.
inline Result run(int i, int kind) {
  Result res;
  const Config& c = kConfigs[i];
  switch (i) {
    case 0: run_config<16, 16, 16, In::F16, Acc::F32>(c, kind, res); break;
    case 1: run_config<32, 8, 16, In::F16, Acc::F32>(c, kind, res); break;
    case 2: run_config<8, 32, 16, In::F16, Acc::F32>(c, kind, res); break;
    case 3: run_config<16, 16, 16, In::F16, Acc::F16>(c, kind, res); break;
    case 4: run_config<32, 8, 16, In::F16, Acc::F16>(c, kind, res); break;
    case 5: run_config<8, 32, 16, In::F16, Acc::F16>(c, kind, res); break;
    case 6: run_config<16, 16, 16, In::BF16, Acc::F32>(c, kind, res); break;
    case 7: run_config<32, 8, 16, In::BF16, Acc::F32>(c, kind, res); break;
    case 8: run_config<8, 32, 16, In::BF16, Acc::F32>(c, kind, res); break;
    case 9: run_config<16, 16, 16, In::S8, Acc::S32>(c, kind, res); break;
    case 10: run_config<32, 8, 16, In::S8, Acc::S32>(c, kind, res); break;
    case 11: run_config<8, 32, 16, In::S8, Acc::S32>(c, kind, res); break;
    case 12: run_config<16, 16, 16, In::U8, Acc::S32>(c, kind, res); break;
    case 13: run_config<32, 8, 16, In::U8, Acc::S32>(c, kind, res); break;
    case 14: run_config<8, 32, 16, In::U8, Acc::S32>(c, kind, res); break;
    case 15: run_config<16, 16, 8, In::TF32, Acc::F32>(c, kind, res); break;
    case 16: run_config<16, 16, 8, In::TF32Raw, Acc::F32>(c, kind, res); break;
  }
  return res;
}

// FNV-1a over D's element bits (acc_bytes each, little-endian), tile after tile.
inline std::uint64_t hash(const Config& cfg, const Result& res) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const auto& d : res.d)
    for (std::uint32_t v : d)
      for (int byte = 0; byte < acc_bytes(cfg.acc); ++byte) h = (h ^ ((v >> (8 * byte)) & 0xff)) * 0x100000001b3ull;
  return h;
}

}  // namespace wmma_cases
