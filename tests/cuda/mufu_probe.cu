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
// sim/math/mufu_tables.cpp: "SIMTMUF1", count, first value, int8 deltas) and
// mufu_hashes.txt.
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

// powf is checked at planted exponents over every x, and at planted bases over every y.
__device__ const float kPowY[] = {0.5f, 2.0f, -1.5f, 3.7f, 0.001f, 3.0f};
__device__ const float kPowX[] = {2.0f, 0.7f, -3.0f, 10.0f};
constexpr int kPowYs = 6, kPowXs = 4;
constexpr int kSingle = 37;  // functions of one argument
constexpr int kFunctions = kSingle + kPowYs + kPowXs;
const char* const kNames[kFunctions] = {
    "ex2.approx.ftz", "rcp.approx.ftz", "rsqrt.approx.ftz", "expf", "__expf", "exp2f", "rsqrtf", "tanhf", "logf",
    "__fdividef(3,x)", "__fdividef(x,0.75)",
    "sinf", "cosf", "sincosf.sin", "sincosf.cos", "tanf", "coshf", "sinhf", "erff", "erfcf", "log2f", "log10f",
    "log1pf", "expm1f", "exp10f", "atanf",
    "lg2.approx.ftz", "__log2f", "__logf", "__log10f", "__powf(x,2.5)", "__powf(1.7,x)",
    "sin.approx.ftz", "cos.approx.ftz", "__sinf", "__cosf", "__tanf",
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
    default:
      return fn < kSingle + kPowYs ? powf(x, kPowY[fn - kSingle]) : powf(kPowX[fn - kSingle - kPowYs], x);
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
    default:
      return fn < kSingle + kPowYs ? simt::mufu::powf(t, x, kPowY[fn - kSingle])
                                   : simt::mufu::powf(t, kPowX[fn - kSingle - kPowYs], x);
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

struct Result {
  unsigned long long sin_conflicts;
  unsigned long long misses[kFunctions];
  unsigned long long hash[kFunctions][256];
  unsigned first[kFunctions][4][3];  // input, CUDA, model
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
