// MUFU probe for the H200 (nvcc 13, sm_90, --fmad=false): measures the tables of
// sim/math/mufu_model.hpp, checks that model and sim/math/cuda_math.hpp against the
// hardware and CUDA's own math functions over every 32-bit input, and prints
// per-chunk hashes of CUDA's results that the simulator's tests compare with.
//
//   nvcc -arch=sm_90 -O3 --fmad=false -I. -o mufu_probe tests/cuda/mufu_probe.cu
//   ./mufu_probe OUTDIR      (tests/cuda/run_mufu_gpu.sh)
//
// OUTDIR receives ex2_pos.tbl ex2_neg.tbl rcp.tbl rsq.tbl lg2_one.tbl lg2_half.tbl (the format of
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

constexpr int kFunctions = 17;
const char* const kNames[kFunctions] = {"ex2.approx.ftz", "rcp.approx.ftz", "rsqrt.approx.ftz", "expf", "__expf",
                                        "exp2f", "rsqrtf", "tanhf", "logf", "__fdividef(3,x)", "__fdividef(x,0.75)",
                                        "lg2.approx.ftz", "__log2f", "__logf", "__log10f", "__powf(x,2.5)",
                                        "__powf(1.7,x)"};

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
    case 11: return hw_lg2(x);
    case 12: return __log2f(x);
    case 13: return __logf(x);
    case 14: return __log10f(x);
    case 15: return __powf(x, 2.5f);
    default: return __powf(powf_base, x);
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
    case 11: return float_of(lg2(t, bits_of(x)));
    case 12: return fast_log2f(t, x);
    case 13: return fast_logf(t, x);
    case 14: return fast_log10f(t, x);
    case 15: return fast_powf(t, x, 2.5f);
    default: return fast_powf(t, 1.7f, x);
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
  cudaMalloc(&pos, 4u << 24);
  cudaMalloc(&neg, 4u << 24);
  cudaMalloc(&rcp, 4u << 23);
  cudaMalloc(&rsq, 4u << 24);
  build_tables<<<(1u << 24) / 256, 256>>>(pos, neg, rcp, rsq, lg2_one, lg2_half);
  Result* r;
  cudaMallocManaged(&r, sizeof(Result));
  std::memset(r, 0, sizeof(Result));
  const simt::mufu::Tables t{pos, neg, rcp, rsq, lg2_one, lg2_half};
  for (int fn = 0; fn < kFunctions; ++fn)
    for (unsigned chunk = 0; chunk < 256; ++chunk) compare<<<(1u << 24) / 256, 256>>>(t, r, fn, chunk);
  const cudaError_t err = cudaDeviceSynchronize();
  std::printf("CUDA: %s\n", cudaGetErrorString(err));
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
  return 0;
}
