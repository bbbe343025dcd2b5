// MUFU probe for the H200 (nvcc 13, sm_90, --fmad=false): measures the tables of
// sim/math/mufu_model.hpp, checks that model and sim/math/cuda_math.hpp against the
// hardware and CUDA's own math functions over every 32-bit input, and prints
// per-chunk hashes of CUDA's results that the simulator's tests compare with.
//
//   nvcc -arch=sm_90 -O3 --fmad=false -I. -o mufu_probe tests/cuda/mufu_probe.cu
//   ./mufu_probe OUTDIR      (tests/cuda/run_mufu_gpu.sh)
//
// OUTDIR receives ex2_pos.tbl ex2_neg.tbl rcp.tbl rsq.tbl lg2_one.tbl lg2_half.tbl sin_quarter.tbl
// cos_quarter.tbl (the format of
// sim/math/mufu_tables.cpp: "SIMTMUF1", count, first value, int8 deltas),
// mufu_hashes.txt, mufu_double_hashes.txt (double exp, log, tanh at 2^32 mixed inputs
// each) and rcp64_hi.bin (rcp.approx.ftz.f64's high words over [1, 2), for the record:
// the model derives them from MUFU.RCP's table).
#include "sim/math/cuda_math.hpp"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

__device__ __forceinline__ float hw_ex2(float x) { float y; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float hw_rcp(float x) { float y; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float hw_rsq(float x) { float y; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float hw_lg2(float x) { float y; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float hw_sin(float x) { float y; asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ float hw_cos(float x) { float y; asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); return y; }
__device__ __forceinline__ double hw_rcp64(double x) { double y; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x)); return y; }

// atan2f and hypotf, like powf: planted first arguments over every second one and
// planted second arguments over every first one (read from memory: not folded).
__device__ const float kAtan2Y[] = {1.0f, -0.3f, 7.5e5f, 0.0f};   // atan2f(y, every x)
__device__ const float kAtan2X[] = {1.0f, -2.0f, 1e-6f};          // atan2f(every y, x)
__device__ const float kHypotY[] = {1.0f, 3e-5f, 1e30f, 0.0f};    // hypotf(every x, y)
__device__ const float kHypotX[] = {-2.5f};                       // hypotf(x, every y)
constexpr int kAtan2Ys = 4, kAtan2Xs = 3, kHypotYs = 4, kHypotXs = 1;

// powf is checked at planted exponents over every x, and at planted bases over every y.
__device__ const float kPowY[] = {0.5f, 2.0f, -1.5f, 3.7f, 0.001f, 3.0f};
__device__ const float kPowX[] = {2.0f, 0.7f, -3.0f, 10.0f};
constexpr int kPowYs = 6, kPowXs = 4;
constexpr int kSingle = 41;  // functions of one argument
constexpr int kPlanted = kAtan2Ys + kAtan2Xs + kHypotYs + kHypotXs;  // atan2f, hypotf
constexpr int kPowFirst = kSingle + kPlanted;
constexpr int kFunctions = kPowFirst + kPowYs + kPowXs;
const char* const kNames[kFunctions] = {
    "ex2.approx.ftz", "rcp.approx.ftz", "rsqrt.approx.ftz", "expf", "__expf", "exp2f", "rsqrtf", "tanhf", "logf",
    "__fdividef(3,x)", "__fdividef(x,0.75)",
    "sinf", "cosf", "sincosf.sin", "sincosf.cos", "tanf", "coshf", "sinhf", "erff", "erfcf", "log2f", "log10f",
    "log1pf", "expm1f", "exp10f", "atanf",
    "lg2.approx.ftz", "__log2f", "__logf", "__log10f", "__powf(x,2.5)", "__powf(1.7,x)",
    "sin.approx.ftz", "cos.approx.ftz", "__sinf", "__cosf", "__tanf", "asinf", "acosf", "cbrtf", "rcbrtf",
    "atan2f(1,x)", "atan2f(-0.3,x)", "atan2f(7.5e5,x)", "atan2f(0,x)", "atan2f(y,1)", "atan2f(y,-2)", "atan2f(y,1e-6)",
    "hypotf(x,1)", "hypotf(x,3e-5)", "hypotf(x,1e30)", "hypotf(x,0)", "hypotf(-2.5,y)",
    "powf(x,0.5)", "powf(x,2)", "powf(x,-1.5)", "powf(x,3.7)", "powf(x,0.001)", "powf(x,3)",
    "powf(2,y)", "powf(0.7,y)", "powf(-3,y)", "powf(10,y)"};

// Read from memory: nvcc folds __powf(1.7f, x)'s __log2f(1.7f) to the correctly
// rounded constant, which is not what MUFU.LG2 gives (simtlab folds it the same way:
// fold_constant_cuda_math in sim/compiler/pass/math_sequences.cpp).
__device__ float powf_base = 1.7f;

__device__ float cuda_fn(int fn, float x) {
  switch (fn) {
    case 0: return hw_ex2(x);
    case 1: return hw_rcp(x);
    case 2: return hw_rsq(x);
    case 3: return expf(x);
    case 4: return __expf(x);
    case 5: return exp2f(x);
    case 6: return rsqrtf(x);
    case 7: return tanhf(x);
    case 8: return logf(x);
    case 9: return __fdividef(3.0f, x);
    case 10: return __fdividef(x, 0.75f);
    case 11: return sinf(x);
    case 12: return cosf(x);
    case 13: { float s, c; sincosf(x, &s, &c); return s; }
    case 14: { float s, c; sincosf(x, &s, &c); return c; }
    case 15: return tanf(x);
    case 16: return coshf(x);
    case 17: return sinhf(x);
    case 18: return erff(x);
    case 19: return erfcf(x);
    case 20: return log2f(x);
    case 21: return log10f(x);
    case 22: return log1pf(x);
    case 23: return expm1f(x);
    case 24: return exp10f(x);
    case 25: return atanf(x);
    case 26: return hw_lg2(x);
    case 27: return __log2f(x);
    case 28: return __logf(x);
    case 29: return __log10f(x);
    case 30: return __powf(x, 2.5f);
    case 31: return __powf(powf_base, x);
    case 32: return hw_sin(x);
    case 33: return hw_cos(x);
    case 34: return __sinf(x);
    case 35: return __cosf(x);
    case 36: return __tanf(x);
    case 37: return asinf(x);
    case 38: return acosf(x);
    case 39: return cbrtf(x);
    case 40: return rcbrtf(x);
    default: {
      int i = fn - kSingle;
      if (i < kAtan2Ys) return atan2f(kAtan2Y[i], x);
      if ((i -= kAtan2Ys) < kAtan2Xs) return atan2f(x, kAtan2X[i]);
      if ((i -= kAtan2Xs) < kHypotYs) return hypotf(x, kHypotY[i]);
      if ((i -= kHypotYs) < kHypotXs) return hypotf(kHypotX[i], x);
      i = fn - kPowFirst;
      return i < kPowYs ? powf(x, kPowY[i]) : powf(kPowX[i - kPowYs], x);
    }
  }
}

__device__ float model_fn(const simt::mufu::Tables& t, int fn, float x) {
  using namespace simt::mufu;
  switch (fn) {
    case 0: return float_of(ex2(t, bits_of(x)));
    case 1: return float_of(rcp(t, bits_of(x)));
    case 2: return float_of(rsq(t, bits_of(x)));
    case 3: return simt::mufu::expf(t, x);
    case 4: return fast_expf(t, x);
    case 5: return simt::mufu::exp2f(t, x);
    case 6: return simt::mufu::rsqrtf(t, x);
    case 7: return simt::mufu::tanhf(t, x);
    case 8: return simt::mufu::logf(x);
    case 9: return fdividef(t, 3.0f, x);
    case 10: return fdividef(t, x, 0.75f);
    case 11: return simt::mufu::sinf(x);
    case 12: return simt::mufu::cosf(x);
    case 13: { float s, c; simt::mufu::sincosf(x, &s, &c); return s; }
    case 14: { float s, c; simt::mufu::sincosf(x, &s, &c); return c; }
    case 15: return simt::mufu::tanf(t, x);
    case 16: return simt::mufu::coshf(t, x);
    case 17: return simt::mufu::sinhf(t, x);
    case 18: return simt::mufu::erff(t, x);
    case 19: return simt::mufu::erfcf(t, x);
    case 20: return simt::mufu::log2f(x);
    case 21: return simt::mufu::log10f(x);
    case 22: return simt::mufu::log1pf(x);
    case 23: return simt::mufu::expm1f(t, x);
    case 24: return simt::mufu::exp10f(t, x);
    case 25: return simt::mufu::atanf(t, x);
    case 26: return float_of(lg2(t, bits_of(x)));
    case 27: return fast_log2f(t, x);
    case 28: return fast_logf(t, x);
    case 29: return fast_log10f(t, x);
    case 30: return fast_powf(t, x, 2.5f);
    case 31: return fast_powf(t, 1.7f, x);
    case 32: return float_of(sin_cos(t, bits_of(x), false));
    case 33: return float_of(sin_cos(t, bits_of(x), true));
    case 34: return fast_sinf(t, x);
    case 35: return fast_cosf(t, x);
    case 36: return fast_tanf(t, x);
    case 37: return simt::mufu::asinf(t, x);
    case 38: return simt::mufu::acosf(t, x);
    case 39: return simt::mufu::cbrtf(t, x);
    case 40: return simt::mufu::rcbrtf(t, x);
    default: {
      int i = fn - kSingle;
      if (i < kAtan2Ys) return simt::mufu::atan2f(kAtan2Y[i], x);
      if ((i -= kAtan2Ys) < kAtan2Xs) return simt::mufu::atan2f(x, kAtan2X[i]);
      if ((i -= kAtan2Xs) < kHypotYs) return simt::mufu::hypotf(x, kHypotY[i]);
      if ((i -= kHypotYs) < kHypotXs) return simt::mufu::hypotf(kHypotX[i], x);
      i = fn - kPowFirst;
      return i < kPowYs ? simt::mufu::powf(t, x, kPowY[i]) : simt::mufu::powf(t, kPowX[i - kPowYs], x);
    }
  }
}

// The hash the simulator's tests recompute (tests/math/test_mufu.cpp): an
// order-free sum over the chunk of a 64-bit mix of (input, result), any NaN as 0x7fffffff.
__host__ __device__ inline unsigned long long mix(unsigned in, unsigned out) {
  if ((out & 0x7fffffffu) > 0x7f800000u) out = 0x7fffffffu;
  unsigned long long z = (static_cast<unsigned long long>(in) << 32 | out) + 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Double precision: exp, log, tanh at 2^32 inputs each, the k-th from a seeded
// 64-bit mix of k (double_input; the same in tests/sim/test_mufu.cpp).
constexpr int kDoubles = 3;
const char* const kDoubleNames[kDoubles] = {"exp", "log", "tanh"};

__host__ __device__ inline unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// One in 16 inputs is any 64-bit pattern (specials, subnormals, huge); the others have
// a random sign and mantissa and an exponent where the function does its work: exp
// 2^-40 to 2^9 (|x| < 1024), log any positive exponent, tanh 2^-30 to 2^5.
__host__ __device__ inline double double_input(int fn, unsigned k) {
  const unsigned long long z = mix64((static_cast<unsigned long long>(fn + 1) << 32) | k);
  unsigned long long b = z;
  if ((z >> 60) != 0) {
    const unsigned long long m = z & 0xfffffffffffffull;
    unsigned long long sign = (z >> 52) & 1;
    const unsigned r = static_cast<unsigned>((z >> 53) & 0x7f);  // 0..127
    unsigned e;
    if (fn == 0) e = 1023 - 40 + r % 50;
    else if (fn == 1) e = static_cast<unsigned>((z >> 53) & 0x7ff), sign = 0;
    else e = 1023 - 30 + r % 36;
    b = sign << 63 | static_cast<unsigned long long>(e) << 52 | m;
  }
  double d;
  memcpy(&d, &b, 8);
  return d;
}

__host__ __device__ inline unsigned long long double_bits(double r) {
  unsigned long long b;
  memcpy(&b, &r, 8);
  if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull) b = 0x7fffffffffffffffull;  // any NaN
  return b;
}

// The hash: an order-free sum over the chunk of a mix of (k, result bits).
__host__ __device__ inline unsigned long long mix_double(unsigned k, unsigned long long r) {
  return mix64(mix64(r) ^ (static_cast<unsigned long long>(k) * 0xd1342543de82ef95ull));
}

struct Result {
  unsigned long long sin_conflicts;
  unsigned long long misses[kFunctions];
  unsigned long long hash[kFunctions][256];
  unsigned first[kFunctions][4][3];  // input, CUDA, model
  unsigned long long dmisses[kDoubles];
  unsigned long long dhash[kDoubles][256];
  unsigned long long dfirst[kDoubles][4][3];
  // rcp.approx.ftz.f64 against rcp64(): high words 0x3ff00000 + k with low word 0 and
  // 0xffffffff; 2^24 mixed inputs over all exponents; results with a nonzero low word.
  unsigned long long rcp64_miss_lo0, rcp64_miss_lo1, rcp64_miss_mixed, rcp64_lo_nonzero;
  unsigned long long rcp64_first[4][3];
};

__global__ void build_tables(unsigned* pos, unsigned* neg, unsigned* rcp, unsigned* rsq, unsigned* lg2_one,
                             unsigned* lg2_half) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= (1u << 24)) return;
  if (k < (1u << 23)) {
    lg2_one[k] = __float_as_uint(hw_lg2(__uint_as_float(0x3f800000u + k)));
    lg2_half[k] = __float_as_uint(hw_lg2(__uint_as_float(0x3f000000u + k)));
  }
  pos[k] = __float_as_uint(hw_ex2(float(k) * 0x1p-24f));
  neg[k] = __float_as_uint(hw_ex2(-float(k) * 0x1p-24f));
  rsq[k] = __float_as_uint(hw_rsq(__uint_as_float(0x3f800000u + k)));
  if (k < (1u << 23)) rcp[k] = __float_as_uint(hw_rcp(__uint_as_float(0x3f800000u + k)));
}

// MUFU.SIN/COS's quarter-period tables, from the inputs x in [0, 1.594): each
// result is filed under floor(t * 2^25), t = x/2pi rounded toward zero as ptxas's
// FMUL.RZ computes it; two inputs with one index must agree (counted if not).
constexpr unsigned kQuarter = 1u << 23, kEmpty = 0xffffffffu;
__global__ void build_sin_tables(unsigned* sin_q, unsigned* cos_q, unsigned long long* conflicts, unsigned base) {
  const unsigned b = base + blockIdx.x * blockDim.x + threadIdx.x;
  if (b > 0x3fcc0000u) return;
  const float x = __uint_as_float(b);
  const float t = __fmul_rz(x, __uint_as_float(0x3e22f983u));
  const unsigned long long k = static_cast<unsigned long long>(static_cast<double>(t) * 33554432.0);
  if (k > kQuarter) return;
  const unsigned s = __float_as_uint(hw_sin(x)), c = __float_as_uint(hw_cos(x));
  unsigned old = atomicCAS(&sin_q[k], kEmpty, s);
  if (old != kEmpty && old != s) atomicAdd(conflicts, 1ull);
  old = atomicCAS(&cos_q[k], kEmpty, c);
  if (old != kEmpty && old != c) atomicAdd(conflicts, 1ull);
}

__global__ void compare(simt::mufu::Tables t, Result* r, int fn, unsigned chunk) {
  const unsigned in = (chunk << 24) | (blockIdx.x * blockDim.x + threadIdx.x);
  const float x = __uint_as_float(in);
  const unsigned want = __float_as_uint(cuda_fn(fn, x)), got = __float_as_uint(model_fn(t, fn, x));
  const bool both_nan = (want & 0x7fffffffu) > 0x7f800000u && (got & 0x7fffffffu) > 0x7f800000u;
  if (want != got && !both_nan) {
    const unsigned long long n = atomicAdd(&r->misses[fn], 1ull);
    if (n < 4) {
      r->first[fn][n][0] = in;
      r->first[fn][n][1] = want;
      r->first[fn][n][2] = got;
    }
  }
  // One atomic per warp: sum the warp's mixes first.
  unsigned long long h = mix(in, want);
  for (int d = 16; d > 0; d /= 2) h += __shfl_down_sync(0xffffffffu, h, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(&r->hash[fn][chunk], h);
}

__device__ double cuda_double(int fn, double x) {
  switch (fn) {
    case 0: return exp(x);
    case 1: return log(x);
    default: return tanh(x);
  }
}
__device__ double model_double(const simt::mufu::Tables& t, int fn, double x) {
  switch (fn) {
    case 0: return simt::mufu::exp(x);
    case 1: return simt::mufu::log(t, x);
    default: return simt::mufu::tanh(t, x);
  }
}

__global__ void compare_double(simt::mufu::Tables t, Result* r, int fn, unsigned chunk) {
  const unsigned k = (chunk << 24) | (blockIdx.x * blockDim.x + threadIdx.x);
  const double x = double_input(fn, k);
  const unsigned long long want = double_bits(cuda_double(fn, x)), got = double_bits(model_double(t, fn, x));
  if (want != got) {
    const unsigned long long n = atomicAdd(&r->dmisses[fn], 1ull);
    if (n < 4) {
      r->dfirst[fn][n][0] = double_bits(x);
      r->dfirst[fn][n][1] = want;
      r->dfirst[fn][n][2] = got;
    }
  }
  unsigned long long h = mix_double(k, want);
  for (int d = 16; d > 0; d /= 2) h += __shfl_down_sync(0xffffffffu, h, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(&r->dhash[fn][chunk], h);
}

__device__ void rcp64_check(const simt::mufu::Tables& t, Result* r, double x, unsigned long long* miss) {
  const unsigned long long want = double_bits(hw_rcp64(x)), got = double_bits(simt::mufu::rcp64(t, x));
  if ((want & 0xffffffffull) != 0) atomicAdd(&r->rcp64_lo_nonzero, 1ull);
  if (want != got) {
    const unsigned long long n = atomicAdd(miss, 1ull);
    if (n < 2 || (miss == &r->rcp64_miss_mixed && n < 4)) {
      const int slot = miss == &r->rcp64_miss_lo0 ? 0 : miss == &r->rcp64_miss_lo1 ? 1 : 2 + (n & 1);
      r->rcp64_first[slot][0] = double_bits(x);
      r->rcp64_first[slot][1] = want;
      r->rcp64_first[slot][2] = got;
    }
  }
}

__global__ void probe_rcp64(simt::mufu::Tables t, Result* r, unsigned* hi_table) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < (1u << 20)) {
    double x;
    unsigned long long b = (0x3ff00000ull + k) << 32;
    memcpy(&x, &b, 8);
    hi_table[k] = static_cast<unsigned>(double_bits(hw_rcp64(x)) >> 32);
    rcp64_check(t, r, x, &r->rcp64_miss_lo0);
    b |= 0xffffffffull;
    memcpy(&x, &b, 8);
    rcp64_check(t, r, x, &r->rcp64_miss_lo1);
  }
  double y;
  const unsigned long long c = mix64(k);  // any bits: every exponent, specials
  memcpy(&y, &c, 8);
  rcp64_check(t, r, y, &r->rcp64_miss_mixed);
}

void write_table(const std::string& path, const unsigned* device, unsigned count) {
  std::vector<unsigned> v(count);
  cudaMemcpy(v.data(), device, count * 4ull, cudaMemcpyDeviceToHost);
  // Deltas of consecutive results in one byte each; 0x80 (-128) escapes a whole
  // value in the next four bytes (LG2's table over [0.5, 1) jumps near 1).
  std::vector<unsigned char> deltas;
  for (unsigned i = 1; i < count; ++i) {
    const long long d = static_cast<long long>(v[i]) - static_cast<long long>(v[i - 1]);
    if (d > -128 && d <= 127) {
      deltas.push_back(static_cast<unsigned char>(static_cast<signed char>(d)));
    } else {
      deltas.push_back(0x80);
      for (int b = 0; b < 4; ++b) deltas.push_back(static_cast<unsigned char>(v[i] >> (8 * b)));
    }
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  std::fwrite("SIMTMUF1", 1, 8, f);
  std::fwrite(&count, 4, 1, f);
  std::fwrite(&v[0], 4, 1, f);
  std::fwrite(deltas.data(), 1, deltas.size(), f);
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : ".";
  unsigned *pos, *neg, *rcp, *rsq, *lg2_one, *lg2_half;
  cudaMalloc(&lg2_one, 4u << 23);
  cudaMalloc(&lg2_half, 4u << 23);
  unsigned *sin_q, *cos_q;
  cudaMalloc(&sin_q, 4ull * (kQuarter + 1));
  cudaMalloc(&cos_q, 4ull * (kQuarter + 1));
  cudaMemset(sin_q, 0xff, 4ull * (kQuarter + 1));
  cudaMemset(cos_q, 0xff, 4ull * (kQuarter + 1));
  cudaMalloc(&pos, 4u << 24);
  cudaMalloc(&neg, 4u << 24);
  cudaMalloc(&rcp, 4u << 23);
  cudaMalloc(&rsq, 4u << 24);
  build_tables<<<(1u << 24) / 256, 256>>>(pos, neg, rcp, rsq, lg2_one, lg2_half);
  Result* r;
  cudaMallocManaged(&r, sizeof(Result));
  std::memset(r, 0, sizeof(Result));
  for (unsigned long long base = 0; base <= 0x3fcc0000ull; base += 1ull << 28)
    build_sin_tables<<<(1u << 28) / 256, 256>>>(sin_q, cos_q, &r->sin_conflicts, unsigned(base));
  const simt::mufu::Tables t{pos, neg, rcp, rsq, lg2_one, lg2_half, sin_q, cos_q};
  for (int fn = 0; fn < kFunctions; ++fn)
    for (unsigned chunk = 0; chunk < 256; ++chunk) compare<<<(1u << 24) / 256, 256>>>(t, r, fn, chunk);
  unsigned* rcp64_hi;
  cudaMalloc(&rcp64_hi, 4u << 20);
  probe_rcp64<<<(1u << 24) / 256, 256>>>(t, r, rcp64_hi);
  for (int fn = 0; fn < kDoubles; ++fn)
    for (unsigned chunk = 0; chunk < 256; ++chunk) compare_double<<<(1u << 24) / 256, 256>>>(t, r, fn, chunk);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("CUDA: %s\n", cudaGetErrorString(err));
  std::printf("MUFU.SIN/COS tables: %llu conflicting inputs\n", r->sin_conflicts);
  if (err != cudaSuccess) return 1;
  FILE* h = std::fopen((out + "/mufu_hashes.txt").c_str(), "w");
  std::fprintf(h, "# function chunk hash: tests/cuda/mufu_probe.cu on the H200 (nvcc 13, --fmad=false)\n");
  for (int fn = 0; fn < kFunctions; ++fn) {
    std::printf("%-20s mismatches over 2^32 inputs: %llu\n", kNames[fn], r->misses[fn]);
    for (unsigned long long i = 0; i < r->misses[fn] && i < 4; ++i)
      std::printf("    x=%08x CUDA %08x model %08x\n", r->first[fn][i][0], r->first[fn][i][1], r->first[fn][i][2]);
    for (unsigned c = 0; c < 256; ++c) std::fprintf(h, "%s %u %016llx\n", kNames[fn], c, r->hash[fn][c]);
  }
  std::fclose(h);
  std::printf("rcp.approx.ftz.f64 vs rcp64(): %llu of 2^20 [1,2) high words (low 0), %llu (low ffffffff), "
              "%llu of 2^24 mixed inputs differ; %llu results with a nonzero low word\n",
              r->rcp64_miss_lo0, r->rcp64_miss_lo1, r->rcp64_miss_mixed, r->rcp64_lo_nonzero);
  for (int i = 0; i < 4; ++i)
    if (r->rcp64_first[i][0] | r->rcp64_first[i][1])
      std::printf("    x=%016llx hw %016llx model %016llx\n", r->rcp64_first[i][0], r->rcp64_first[i][1], r->rcp64_first[i][2]);
  FILE* hd = std::fopen((out + "/mufu_double_hashes.txt").c_str(), "w");
  std::fprintf(hd, "# function chunk hash: tests/cuda/mufu_probe.cu's double_input on the H200 (nvcc 13, --fmad=false)\n");
  for (int fn = 0; fn < kDoubles; ++fn) {
    std::printf("%-20s mismatches over 2^32 mixed inputs: %llu\n", kDoubleNames[fn], r->dmisses[fn]);
    for (unsigned long long i = 0; i < r->dmisses[fn] && i < 4; ++i)
      std::printf("    x=%016llx CUDA %016llx model %016llx\n", r->dfirst[fn][i][0], r->dfirst[fn][i][1], r->dfirst[fn][i][2]);
    for (unsigned c = 0; c < 256; ++c) std::fprintf(hd, "%s %u %016llx\n", kDoubleNames[fn], c, r->dhash[fn][c]);
  }
  std::fclose(hd);
  {
    std::vector<unsigned> v(1u << 20);
    cudaMemcpy(v.data(), rcp64_hi, 4u << 20, cudaMemcpyDeviceToHost);
    FILE* f = std::fopen((out + "/rcp64_hi.bin").c_str(), "wb");
    std::fwrite(v.data(), 4, v.size(), f);
    std::fclose(f);
  }
  write_table(out + "/ex2_pos.tbl", pos, 1u << 24);
  write_table(out + "/ex2_neg.tbl", neg, 1u << 24);
  write_table(out + "/rcp.tbl", rcp, 1u << 23);
  write_table(out + "/rsq.tbl", rsq, 1u << 24);
  write_table(out + "/lg2_one.tbl", lg2_one, 1u << 23);
  write_table(out + "/lg2_half.tbl", lg2_half, 1u << 23);
  write_table(out + "/sin_quarter.tbl", sin_q, kQuarter + 1);
  write_table(out + "/cos_quarter.tbl", cos_q, kQuarter + 1);
  return 0;
}
