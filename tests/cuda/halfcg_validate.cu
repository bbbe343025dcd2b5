// fp16/bf16 and cooperative groups on both sides, bit for bit (docs/validation/h200-halfcg.md).
// The same file is built with nvcc 13 (--fmad=false -arch=sm_90) and with `simt cc`; each
// build writes one binary file of raw output bits per test into the folder given as
// argv[1], and scripts/compare in tests/cuda/halfcg_compare.py diffs the two folders.
// Inputs come from a fixed-seed generator in host code, so both sides see the same.
// The count_* kernels do one operation per thread: ncu's hadd/hmul/hfma per thread.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

static std::string g_dir;
static std::uint64_t g_state = 0x9E3779B97F4A7C15ull;
static std::uint32_t next_u32() {
  g_state ^= g_state << 13;
  g_state ^= g_state >> 7;
  g_state ^= g_state << 17;
  return std::uint32_t(g_state >> 16);
}

static void save(const std::string& name, const void* data, std::size_t bytes) {
  std::string path = g_dir + "/" + name + ".bin";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) { std::printf("cannot write %s\n", path.c_str()); std::exit(1); }
  std::fwrite(data, 1, bytes, f);
  std::fclose(f);
}

// Runs kernel k over n inputs of type In (device copy made here), saves n outputs of type Out.
template <class In, class Out, class K>
static void run_map(const std::string& name, K k, const std::vector<In>& in, int arity) {
  const int n = int(in.size()) / arity;
  In* d_in;
  Out* d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(In)));
  CHECK(cudaMalloc(&d_out, n * sizeof(Out)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(In), cudaMemcpyHostToDevice));
  k<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  CHECK(cudaGetLastError());
  std::vector<Out> out(n);
  CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(Out), cudaMemcpyDeviceToHost));
  save(name, out.data(), n * sizeof(Out));
  if (std::getenv("HALFCG_SAVE_INPUTS")) save(name + ".in", in.data(), in.size() * sizeof(In));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
}

// ---- fp16 / bf16 elementwise tests, one kernel template per shape ----------------
template <class H> __device__ H from_bits(unsigned short b);
template <> __device__ __half from_bits<__half>(unsigned short b) { return __ushort_as_half(b); }
template <> __device__ __nv_bfloat16 from_bits<__nv_bfloat16>(unsigned short b) { return __ushort_as_bfloat16(b); }
__device__ unsigned short to_bits(__half h) { return __half_as_ushort(h); }
__device__ unsigned short to_bits(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

template <class H, class Op>
__global__ void unary_k(const unsigned short* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = to_bits(Op()(from_bits<H>(in[i])));
}
template <class H, class Op>
__global__ void binary_k(const unsigned short* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = to_bits(Op()(from_bits<H>(in[2 * i]), from_bits<H>(in[2 * i + 1])));
}
template <class H, class Op>
__global__ void ternary_k(const unsigned short* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = to_bits(Op()(from_bits<H>(in[3 * i]), from_bits<H>(in[3 * i + 1]), from_bits<H>(in[3 * i + 2])));
}
// Half (or bf16) in, 32-bit result (a float's bits, an int, a comparison).
template <class H, class Op>
__global__ void to32_k(const unsigned short* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op()(from_bits<H>(in[i]));
}
template <class H, class Op>
__global__ void cmp_k(const unsigned short* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op()(from_bits<H>(in[2 * i]), from_bits<H>(in[2 * i + 1]));
}
// 32-bit in (float bits, int), half bits out.
template <class Op>
__global__ void from32_k(const unsigned* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op()(in[i]);
}
// Packed pairs: 32-bit in (one __half2), 32-bit out.
template <class Op>
__global__ void pair_k(const unsigned* in, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Op()(in[2 * i], in[2 * i + 1]);
}

#define UNARY(name, expr)                                                  \
  struct name {                                                            \
    template <class H> __device__ H operator()(H a) const { return expr; } \
  };
UNARY(op_hsqrt, hsqrt(a))
UNARY(op_hrsqrt, hrsqrt(a))
UNARY(op_hrcp, hrcp(a))
UNARY(op_hexp, hexp(a))
UNARY(op_hexp2, hexp2(a))
UNARY(op_hexp10, hexp10(a))
UNARY(op_hlog, hlog(a))
UNARY(op_hlog2, hlog2(a))
UNARY(op_hlog10, hlog10(a))
UNARY(op_hsin, hsin(a))
UNARY(op_hcos, hcos(a))
UNARY(op_htanh, htanh(a))
UNARY(op_hceil, hceil(a))
UNARY(op_hfloor, hfloor(a))
UNARY(op_htrunc, htrunc(a))
UNARY(op_hrint, hrint(a))
UNARY(op_hneg, __hneg(a))
UNARY(op_habs, __habs(a))
UNARY(op_uminus, -a)

#define BINARY(name, expr)                                                      \
  struct name {                                                                 \
    template <class H> __device__ H operator()(H a, H b) const { return expr; } \
  };
BINARY(op_hadd, __hadd(a, b))
BINARY(op_hsub, __hsub(a, b))
BINARY(op_hmul, __hmul(a, b))
BINARY(op_hdiv, __hdiv(a, b))
BINARY(op_hmax, __hmax(a, b))
BINARY(op_hmin, __hmin(a, b))
BINARY(op_hmax_nan, __hmax_nan(a, b))
BINARY(op_hmin_nan, __hmin_nan(a, b))
BINARY(op_hadd_sat, __hadd_sat(a, b))
BINARY(op_plus, a + b)
BINARY(op_minus, a - b)
BINARY(op_times, a * b)
BINARY(op_over, a / b)

struct op_hfma {
  template <class H> __device__ H operator()(H a, H b, H c) const { return __hfma(a, b, c); }
};
struct op_hfma_sat {
  template <class H> __device__ H operator()(H a, H b, H c) const { return __hfma_sat(a, b, c); }
};
struct op_hfma_relu {
  template <class H> __device__ H operator()(H a, H b, H c) const { return __hfma_relu(a, b, c); }
};

#define CMP(name, expr)                                                                   \
  struct name {                                                                           \
    template <class H> __device__ unsigned operator()(H a, H b) const { return (expr) ? 1u : 0u; } \
  };
CMP(op_heq, __heq(a, b))
CMP(op_hne, __hne(a, b))
CMP(op_hlt, __hlt(a, b))
CMP(op_hle, __hle(a, b))
CMP(op_hgt, __hgt(a, b))
CMP(op_hge, __hge(a, b))
CMP(op_hequ, __hequ(a, b))
CMP(op_hneu, __hneu(a, b))
CMP(op_hltu, __hltu(a, b))
CMP(op_hgeu, __hgeu(a, b))
CMP(op_lt_operator, a < b)
CMP(op_eq_operator, a == b)

#define TO32(name, expr)                                                         \
  struct name {                                                                  \
    template <class H> __device__ unsigned operator()(H a) const { return unsigned(expr); } \
  };
TO32(op_to_float, __float_as_uint(float(a)))
TO32(op_isnan, __hisnan(a))
TO32(op_isinf, __hisinf(a))
struct op_h2f { __device__ unsigned operator()(__half a) const { return __float_as_uint(__half2float(a)); } };
struct op_b2f { __device__ unsigned operator()(__nv_bfloat16 a) const { return __float_as_uint(__bfloat162float(a)); } };
struct op_h2i_rn { __device__ unsigned operator()(__half a) const { return unsigned(__half2int_rn(a)); } };
struct op_h2i_rz { __device__ unsigned operator()(__half a) const { return unsigned(__half2int_rz(a)); } };
struct op_h2i_rd { __device__ unsigned operator()(__half a) const { return unsigned(__half2int_rd(a)); } };
struct op_h2i_ru { __device__ unsigned operator()(__half a) const { return unsigned(__half2int_ru(a)); } };
struct op_h2u_rz { __device__ unsigned operator()(__half a) const { return __half2uint_rz(a); } };
struct op_h2s_rn { __device__ unsigned operator()(__half a) const { return unsigned(int(__half2short_rn(a))); } };
struct op_h2ll_rz { __device__ unsigned operator()(__half a) const { return unsigned(__half2ll_rz(a)); } };
struct op_b2i_rn { __device__ unsigned operator()(__nv_bfloat16 a) const { return unsigned(__bfloat162int_rn(a)); } };
struct op_b2i_rz { __device__ unsigned operator()(__nv_bfloat16 a) const { return unsigned(__bfloat162int_rz(a)); } };
struct op_b2h { __device__ unsigned operator()(__nv_bfloat16 a) const { return __half_as_ushort(__float2half(__bfloat162float(a))); } };

#define FROM32(name, expr)                                                          \
  struct name {                                                                     \
    __device__ unsigned short operator()(unsigned u) const { float f = __uint_as_float(u); (void)f; return expr; } \
  };
FROM32(op_f2h, __half_as_ushort(__float2half(f)))
FROM32(op_f2h_rn, __half_as_ushort(__float2half_rn(f)))
FROM32(op_f2h_rz, __half_as_ushort(__float2half_rz(f)))
FROM32(op_f2h_rd, __half_as_ushort(__float2half_rd(f)))
FROM32(op_f2h_ru, __half_as_ushort(__float2half_ru(f)))
FROM32(op_f2h_ctor, __half_as_ushort(__half(f)))
FROM32(op_f2b, __bfloat16_as_ushort(__float2bfloat16(f)))
FROM32(op_f2b_rn, __bfloat16_as_ushort(__float2bfloat16_rn(f)))
FROM32(op_f2b_rz, __bfloat16_as_ushort(__float2bfloat16_rz(f)))
FROM32(op_f2b_rd, __bfloat16_as_ushort(__float2bfloat16_rd(f)))
FROM32(op_f2b_ru, __bfloat16_as_ushort(__float2bfloat16_ru(f)))
FROM32(op_f2b_ctor, __bfloat16_as_ushort(__nv_bfloat16(f)))
FROM32(op_i2h_rn, __half_as_ushort(__int2half_rn(int(u))))
FROM32(op_i2h_rz, __half_as_ushort(__int2half_rz(int(u))))
FROM32(op_i2h_rd, __half_as_ushort(__int2half_rd(int(u))))
FROM32(op_i2h_ru, __half_as_ushort(__int2half_ru(int(u))))
FROM32(op_u2h_rn, __half_as_ushort(__uint2half_rn(u)))
FROM32(op_i2b_rn, __bfloat16_as_ushort(__int2bfloat16_rn(int(u))))
FROM32(op_d2h, __half_as_ushort(__double2half(double(f) * (1.0 + 1.0 / 4096.0))))
FROM32(op_d2b, __bfloat16_as_ushort(__double2bfloat16(double(f) * (1.0 + 1.0 / 4096.0))))

// Packed pairs: the two halves must come out as the scalar operation does on each.
#define PAIR(name, T, T2, expr)                                                              \
  struct name {                                                                              \
    __device__ unsigned operator()(unsigned ua, unsigned ub) const {                         \
      T2 a, b;                                                                               \
      std::memcpy(&a, &ua, 4);                                                               \
      std::memcpy(&b, &ub, 4);                                                               \
      T2 r = expr;                                                                           \
      unsigned out;                                                                          \
      std::memcpy(&out, &r, 4);                                                              \
      return out;                                                                            \
    }                                                                                        \
  };
PAIR(op_hadd2, __half, __half2, __hadd2(a, b))
PAIR(op_hsub2, __half, __half2, __hsub2(a, b))
PAIR(op_hmul2, __half, __half2, __hmul2(a, b))
PAIR(op_h2div, __half, __half2, __h2div(a, b))
PAIR(op_hfma2, __half, __half2, __hfma2(a, b, __halves2half2(__high2half(a), __low2half(b))))
PAIR(op_hmax2, __half, __half2, __hmax2(a, b))
PAIR(op_h2exp, __half, __half2, h2exp(a))
PAIR(op_h2sqrt, __half, __half2, h2sqrt(a))
PAIR(op_h2ops, __half, __half2, a + b * a - b)
PAIR(op_heq2, __half, __half2, __heq2(a, b))
PAIR(op_hlt2, __half, __half2, __hlt2(a, b))
PAIR(op_lowhigh, __half, __half2, __lowhigh2highlow(__halves2half2(__low2half(a), __high2half(b))))
PAIR(op_f22h2, __half, __half2, __floats2half2_rn(__low2float(a) * 3.0f, __high2float(b) + 1.0f))
PAIR(op_f2h2, __half, __half2, __float2half2_rn(__half22float2(a).x + __half22float2(b).y))
PAIR(op_badd2, __nv_bfloat16, __nv_bfloat162, __hadd2(a, b))
PAIR(op_bmul2, __nv_bfloat16, __nv_bfloat162, __hmul2(a, b))
PAIR(op_bfma2, __nv_bfloat16, __nv_bfloat162, __hfma2(a, b, __halves2bfloat162(__high2bfloat16(a), __low2bfloat16(b))))
PAIR(op_bops2, __nv_bfloat16, __nv_bfloat162, a + b * a - b)
PAIR(op_f22b2, __nv_bfloat16, __nv_bfloat162,
     __floats2bfloat162_rn(__low2float(a) * 3.0f, __high2float(b) + 1.0f))
PAIR(op_f2b2, __nv_bfloat16, __nv_bfloat162,
     __float22bfloat162_rn(make_float2(__low2float(a) / 3.0f, __high2float(b) - 1.0f)))

// ---- inputs -----------------------------------------------------------------
static std::vector<unsigned short> all_16() {
  std::vector<unsigned short> v(65536);
  for (int i = 0; i < 65536; ++i) v[i] = (unsigned short)i;
  return v;
}
// Planted corner cases first (ties, subnormals, overflow, NaN, signed zeros), then random.
static std::vector<unsigned short> pairs_16(bool bf16, int random_pairs) {
  std::vector<unsigned short> v;
  const unsigned short h_specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400, 0x3c00, 0x3c01, 0xbc00,
                                       0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0x1400, 0x5800};
  const unsigned short b_specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x0080, 0x3f80, 0x3f81, 0xbf80,
                                       0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc0, 0x3b80, 0x4780};
  const unsigned short* s = bf16 ? b_specials : h_specials;
  for (int i = 0; i < 18; ++i)
    for (int j = 0; j < 18; ++j) { v.push_back(s[i]); v.push_back(s[j]); }
  for (int i = 0; i < random_pairs; ++i) {
    std::uint32_t r = next_u32();
    v.push_back((unsigned short)r);
    // Half the pairs with nearby exponents, so that sums round rather than absorb.
    v.push_back(i % 2 ? (unsigned short)(r >> 16) : (unsigned short)((r & 0xfc00u) ^ (next_u32() & 0x83ffu)));
  }
  return v;
}
static std::vector<unsigned short> triples_16(bool bf16, int n) {
  std::vector<unsigned short> v;
  // bf16: 7 * 39 = 273 is a midpoint between bf16 272 and 274; a tiny addend must round it up.
  if (bf16) {
    const unsigned short planted[][3] = {{0x40e0, 0x421c, 0x0001}, {0x40e0, 0x421c, 0x8001}, {0x40e0, 0x421c, 0x0000},
                                         {0x7f7f, 0x4000, 0xff7f}, {0x0001, 0x3f00, 0x0000}, {0x0003, 0x3f00, 0x8000}};
    for (auto& p : planted) v.insert(v.end(), p, p + 3);
  } else {
    // 3 * 683 = 2049: a midpoint between halves 2048 and 2050.
    const unsigned short planted[][3] = {{0x4200, 0x6156, 0x0001}, {0x4200, 0x6156, 0x8001}, {0x4200, 0x6156, 0x0000},
                                         {0x7bff, 0x4000, 0xfbff}, {0x0001, 0x3800, 0x0000}, {0x0003, 0x3800, 0x8000}};
    for (auto& p : planted) v.insert(v.end(), p, p + 3);
  }
  for (int i = 0; i < n; ++i) {
    std::uint32_t r = next_u32(), q = next_u32();
    v.push_back((unsigned short)r);
    v.push_back((unsigned short)(r >> 16));
    v.push_back(i % 2 ? (unsigned short)q : (unsigned short)(((r & 0x7c00u) + (r >> 16 & 0x7c00u)) / 2 ^ (q & 0x83ffu)));
  }
  return v;
}
static std::vector<unsigned> floats_32(int n) {
  std::vector<unsigned> v = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7f800001u,
                             0xffc00001u, 0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477ff001u, 0x33800000u,
                             0x33000000u, 0x33000001u, 0x337fffffu, 0x387fc000u, 0x38800000u, 0x3f801000u,
                             0x3f803000u, 0x3f801001u, 0x3f808000u, 0x3f818000u, 0x7f7fffffu, 0x00000001u,
                             0x7f7f8000u, 0x7f7f7fffu, 0x00008000u, 0x00018000u};
  for (int i = 0; i < n; ++i) {
    std::uint32_t r = next_u32();
    // A third with exponents in fp16's range, a third ties-ish (low bits cleared), a third anything.
    if (i % 3 == 0) r = (r & 0x807fffffu) | ((100u + (next_u32() % 50u)) << 23);
    else if (i % 3 == 1) r = (r & 0xffffe000u) | 0x1000u;
    v.push_back(r);
  }
  return v;
}
static std::vector<unsigned> ints_32(int n) {
  std::vector<unsigned> v = {0u, 1u, 0xffffffffu, 2049u, 2051u, 2053u, 65504u, 65519u, 65520u, 65536u,
                             0x7fffffffu, 0x80000000u, 4097u, 257u, 259u, 0x01000001u};
  for (int i = 0; i < n; ++i) {
    std::uint32_t r = next_u32();
    v.push_back(i % 2 ? r : r >> (next_u32() % 28));
  }
  return v;
}

template <class H> static void elementwise_tests(const char* t) {
  const bool bf16 = sizeof(H) == 2 && std::string(t) == "bf16";
  std::string p = std::string(t) + "_";
  auto all = all_16();
#define RUN_U(op) run_map<unsigned short, unsigned short>(p + #op, unary_k<H, op>, all, 1);
  RUN_U(op_hsqrt) RUN_U(op_hrsqrt) RUN_U(op_hrcp) RUN_U(op_hexp) RUN_U(op_hexp2) RUN_U(op_hexp10)
  RUN_U(op_hlog) RUN_U(op_hlog2) RUN_U(op_hlog10) RUN_U(op_hsin) RUN_U(op_hcos) RUN_U(op_htanh)
  RUN_U(op_hceil) RUN_U(op_hfloor) RUN_U(op_htrunc) RUN_U(op_hrint) RUN_U(op_hneg) RUN_U(op_habs) RUN_U(op_uminus)
  run_map<unsigned short, unsigned>(p + "op_to_float", to32_k<H, op_to_float>, all, 1);
  run_map<unsigned short, unsigned>(p + "op_isnan", to32_k<H, op_isnan>, all, 1);
  run_map<unsigned short, unsigned>(p + "op_isinf", to32_k<H, op_isinf>, all, 1);
  auto pairs = pairs_16(bf16, 1 << 16);
#define RUN_B(op) run_map<unsigned short, unsigned short>(p + #op, binary_k<H, op>, pairs, 2);
  RUN_B(op_hadd) RUN_B(op_hsub) RUN_B(op_hmul) RUN_B(op_hdiv) RUN_B(op_hmax) RUN_B(op_hmin) RUN_B(op_hmax_nan)
  RUN_B(op_hmin_nan) RUN_B(op_hadd_sat) RUN_B(op_plus) RUN_B(op_minus) RUN_B(op_times) RUN_B(op_over)
#define RUN_C(op) run_map<unsigned short, unsigned>(p + #op, cmp_k<H, op>, pairs, 2);
  RUN_C(op_heq) RUN_C(op_hne) RUN_C(op_hlt) RUN_C(op_hle) RUN_C(op_hgt) RUN_C(op_hge) RUN_C(op_hequ) RUN_C(op_hneu)
  RUN_C(op_hltu) RUN_C(op_hgeu) RUN_C(op_lt_operator) RUN_C(op_eq_operator)
  auto triples = triples_16(bf16, 1 << 16);
  run_map<unsigned short, unsigned short>(p + "op_hfma", ternary_k<H, op_hfma>, triples, 3);
  run_map<unsigned short, unsigned short>(p + "op_hfma_sat", ternary_k<H, op_hfma_sat>, triples, 3);
  run_map<unsigned short, unsigned short>(p + "op_hfma_relu", ternary_k<H, op_hfma_relu>, triples, 3);
}

static void conversion_tests() {
  auto all = all_16();
  run_map<unsigned short, unsigned>("fp16_op_h2f", to32_k<__half, op_h2f>, all, 1);
  run_map<unsigned short, unsigned>("bf16_op_b2f", to32_k<__nv_bfloat16, op_b2f>, all, 1);
#define RUN_T(T, op) run_map<unsigned short, unsigned>(#op, to32_k<T, op>, all, 1);
  RUN_T(__half, op_h2i_rn) RUN_T(__half, op_h2i_rz) RUN_T(__half, op_h2i_rd) RUN_T(__half, op_h2i_ru)
  RUN_T(__half, op_h2u_rz) RUN_T(__half, op_h2s_rn) RUN_T(__half, op_h2ll_rz)
  RUN_T(__nv_bfloat16, op_b2i_rn) RUN_T(__nv_bfloat16, op_b2i_rz) RUN_T(__nv_bfloat16, op_b2h)
  auto fl = floats_32(1 << 17);
#define RUN_F(op) run_map<unsigned, unsigned short>(#op, from32_k<op>, fl, 1);
  RUN_F(op_f2h) RUN_F(op_f2h_rn) RUN_F(op_f2h_rz) RUN_F(op_f2h_rd) RUN_F(op_f2h_ru) RUN_F(op_f2h_ctor)
  RUN_F(op_f2b) RUN_F(op_f2b_rn) RUN_F(op_f2b_rz) RUN_F(op_f2b_rd) RUN_F(op_f2b_ru) RUN_F(op_f2b_ctor)
  RUN_F(op_d2h) RUN_F(op_d2b)
  auto in = ints_32(1 << 16);
#define RUN_I(op) run_map<unsigned, unsigned short>(#op, from32_k<op>, in, 1);
  RUN_I(op_i2h_rn) RUN_I(op_i2h_rz) RUN_I(op_i2h_rd) RUN_I(op_i2h_ru) RUN_I(op_u2h_rn) RUN_I(op_i2b_rn)
  std::vector<unsigned> pr;
  for (int i = 0; i < (1 << 17); ++i) pr.push_back(next_u32());
#define RUN_P(op) run_map<unsigned, unsigned>(#op, pair_k<op>, pr, 2);
  RUN_P(op_hadd2) RUN_P(op_hsub2) RUN_P(op_hmul2) RUN_P(op_h2div) RUN_P(op_hfma2) RUN_P(op_hmax2) RUN_P(op_h2exp)
  RUN_P(op_h2sqrt) RUN_P(op_h2ops) RUN_P(op_heq2) RUN_P(op_hlt2) RUN_P(op_lowhigh) RUN_P(op_f22h2) RUN_P(op_f2h2)
  RUN_P(op_badd2) RUN_P(op_bmul2) RUN_P(op_bfma2) RUN_P(op_bops2) RUN_P(op_f22b2) RUN_P(op_f2b2)
}

// ---- shuffles and atomics on half types ----------------------------------------
__global__ void shfl_half_k(unsigned* out) {
  int l = threadIdx.x;
  __half h = __float2half(float(l) * 0.75f);
  __half2 h2 = __floats2half2_rn(float(l), float(-l) * 0.5f);
  __nv_bfloat16 b = __float2bfloat16(float(l) * 1.25f);
  __nv_bfloat162 b2 = __floats2bfloat162_rn(float(l) + 0.5f, float(l) * 3.0f);
  __half a = __shfl_down_sync(0xffffffffu, h, 3);
  __half2 a2 = __shfl_xor_sync(0xffffffffu, h2, 5);
  __nv_bfloat16 c = __shfl_sync(0xffffffffu, b, 31 - l);
  __nv_bfloat162 c2 = __shfl_up_sync(0xffffffffu, b2, 2);
  unsigned w2, v2;
  std::memcpy(&w2, &a2, 4);
  std::memcpy(&v2, &c2, 4);
  out[4 * l] = __half_as_ushort(a);
  out[4 * l + 1] = w2;
  out[4 * l + 2] = __bfloat16_as_ushort(c);
  out[4 * l + 3] = v2;
}
__global__ void atomic_half_k(__half* h, __half2* h2, __nv_bfloat16* b, __nv_bfloat162* b2) {
  // Small integers: every order of the additions gives the same, exact sum.
  atomicAdd(h, __float2half(float(threadIdx.x % 4)));
  atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  atomicAdd(b, __float2bfloat16(1.0f));
  atomicAdd(b2, __floats2bfloat162_rn(2.0f, 0.5f));
}
static void warp_tests() {
  unsigned* d;
  CHECK(cudaMalloc(&d, 128 * 4));
  shfl_half_k<<<1, 32>>>(d);
  CHECK(cudaGetLastError());
  std::vector<unsigned> out(128);
  CHECK(cudaMemcpy(out.data(), d, 128 * 4, cudaMemcpyDeviceToHost));
  save("shfl_half", out.data(), 128 * 4);
  char* m;
  CHECK(cudaMalloc(&m, 64));
  CHECK(cudaMemset(m, 0, 64));
  atomic_half_k<<<2, 64>>>((__half*)m, (__half2*)(m + 4), (__nv_bfloat16*)(m + 8), (__nv_bfloat162*)(m + 12));
  CHECK(cudaGetLastError());
  unsigned char host[16];
  CHECK(cudaMemcpy(host, m, 16, cudaMemcpyDeviceToHost));
  save("atomic_half", host, 16);
  CHECK(cudaFree(d));
  CHECK(cudaFree(m));
}

// ---- cooperative groups ------------------------------------------------------
// Values whose float sum depends on the order: large and small magnitudes mixed.
__device__ float planted(int i) {
  float big = (i % 7 == 0) ? 16777216.0f : 1.0f;
  return big * (1.0f + float((i * 37) % 101) / 97.0f) * ((i % 3) ? 1.0f : -1.0f);
}

template <int N>
__device__ void tile_tests(cg::thread_block block, float* out, unsigned* uout) {
  cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
  const int r = block.thread_rank();
  float v = planted(r + 1000 * N);
  out[r] = cg::reduce(t, v, cg::plus<float>());
  out[blockDim.x + r] = cg::reduce(t, v, cg::greater<float>());
  out[2 * blockDim.x + r] = cg::reduce(t, v, cg::less<float>());
  out[3 * blockDim.x + r] = t.shfl_down(v, 1) + t.shfl_up(v, 1) * 2.0f;
  out[4 * blockDim.x + r] = t.shfl_xor(v, N > 1 ? N / 2 : 0) - t.shfl(v, N - 1);
  unsigned u = unsigned(r * 2654435761u);
  uout[r] = cg::reduce(t, u, cg::bit_xor<unsigned>());
  uout[blockDim.x + r] = cg::reduce(t, u, cg::bit_or<unsigned>()) ^ cg::reduce(t, u, cg::bit_and<unsigned>());
  uout[2 * blockDim.x + r] = t.ballot(v > 1.5f) * 3u + unsigned(t.any(v < -20.0f)) * 7u + unsigned(t.all(v > -3.0f));
  uout[3 * blockDim.x + r] = t.thread_rank() | (t.meta_group_rank() << 8) | (t.meta_group_size() << 16) |
                             (t.size() << 24);
  uout[4 * blockDim.x + r] = cg::reduce(t, int(r) - 40, cg::plus<int>());
  t.sync();
}

__global__ void cg_tiles_k(float* out, unsigned* uout) {
  cg::thread_block block = cg::this_thread_block();
  const int stride = 5 * blockDim.x;
  tile_tests<32>(block, out + 0 * stride, uout + 0 * stride);
  tile_tests<16>(block, out + 1 * stride, uout + 1 * stride);
  tile_tests<8>(block, out + 2 * stride, uout + 2 * stride);
  tile_tests<4>(block, out + 3 * stride, uout + 3 * stride);
  tile_tests<2>(block, out + 4 * stride, uout + 4 * stride);
  tile_tests<1>(block, out + 5 * stride, uout + 5 * stride);
}

__global__ void cg_block_k(unsigned* out, float* fout) {
  cg::thread_block b = cg::this_thread_block();
  const unsigned r = b.thread_rank();
  __shared__ float partial[8];
  out += blockIdx.x * 5 * blockDim.x * blockDim.y;  // each block its own slice
  out[r] = r | (b.size() << 10) | (b.num_threads() << 20);
  out[blockDim.x * blockDim.y + r] = b.thread_index().x + 16 * b.thread_index().y + 256 * b.group_index().x +
                                     4096 * b.dim_threads().x + 65536 * b.group_dim().y;
  cg::thread_group tile = cg::tiled_partition(b, 8);  // dynamic
  out[2 * blockDim.x * blockDim.y + r] = tile.thread_rank() + 100 * tile.size();
  // Block sum: each warp reduces, warp 0 adds the partials in order.
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(b);
  float v = planted(int(r) + 77 * int(blockIdx.x));
  float ws = cg::reduce(warp, v, cg::plus<float>());
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = ws;
  b.sync();
  if (warp.meta_group_rank() == 0) {
    float p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0.0f;
    float s = cg::reduce(warp, p, cg::plus<float>());
    if (warp.thread_rank() == 0) fout[blockIdx.x] = s;
  }
  // coalesced_threads() in a branch: the active lanes, ranked in lane order.
  if (r % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    float cs = cg::reduce(active, v, cg::plus<float>());
    out[3 * blockDim.x * blockDim.y + r] = active.thread_rank() + 64 * active.size();
    fout[gridDim.x + blockIdx.x * blockDim.x * blockDim.y + r] = cs;
    out[4 * blockDim.x * blockDim.y + r] = active.ballot(v > 0.0f) ^ unsigned(active.shfl(int(r), 0));
  }
}

__global__ void cg_grid_k(float* data, float* out, int n) {
  cg::grid_group g = cg::this_grid();
  int i = int(g.thread_rank());
  if (i < n) data[i] = planted(i);
  g.sync();
  if (i < n) out[i] = data[(i * 17) % n] + data[n - 1 - i];
  if (i == 0) out[n] = float(g.size()) + float(g.num_blocks()) * 0.5f;
}

static void cg_tests() {
  const int threads = 128;
  float* f;
  unsigned* u;
  CHECK(cudaMalloc(&f, 6 * 5 * threads * 4));
  CHECK(cudaMalloc(&u, 6 * 5 * threads * 4));
  cg_tiles_k<<<1, threads>>>(f, u);
  CHECK(cudaGetLastError());
  std::vector<unsigned> hf(6 * 5 * threads), hu(6 * 5 * threads);
  CHECK(cudaMemcpy(hf.data(), f, hf.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hu.data(), u, hu.size() * 4, cudaMemcpyDeviceToHost));
  save("cg_tiles_f", hf.data(), hf.size() * 4);
  save("cg_tiles_u", hu.data(), hu.size() * 4);
  CHECK(cudaMemset(u, 0, 6 * 5 * threads * 4));
  CHECK(cudaMemset(f, 0, 6 * 5 * threads * 4));
  cg_block_k<<<3, dim3(16, 8)>>>(u, f);
  CHECK(cudaGetLastError());
  std::vector<unsigned> bu(3 * 5 * 128), bf(3 + 3 * 128);
  CHECK(cudaMemcpy(bu.data(), u, bu.size() * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(bf.data(), f, bf.size() * 4, cudaMemcpyDeviceToHost));
  save("cg_block_u", bu.data(), bu.size() * 4);
  save("cg_block_f", bf.data(), bf.size() * 4);
  std::printf("cg block sums: %08x %08x %08x\n", bf[0], bf[1], bf[2]);

  CHECK(cudaFree(f));
  CHECK(cudaFree(u));
  int n = 1000;
  float *data, *out;
  CHECK(cudaMalloc(&data, n * 4));
  CHECK(cudaMalloc(&out, (n + 1) * 4));
  void* args[] = {&data, &out, &n};
  // A grid-wide barrier (the simulator runs it since 2026-12-01; a failure here would
  // be a sticky error, so this test comes last).
  cudaError_t e = cudaLaunchCooperativeKernel(cg_grid_k, dim3(4), dim3(256), args, 0, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("cooperative launch: %s\n", cudaGetErrorString(e));
    return;
  }
  std::vector<unsigned> go(n + 1);
  CHECK(cudaMemcpy(go.data(), out, go.size() * 4, cudaMemcpyDeviceToHost));
  save("cg_grid", go.data(), go.size() * 4);
}

// ---- counting kernels: one operation per thread, for ncu ------------------------
#define COUNT_KERNEL(name, T, expr)                                                 \
  __global__ void count_##name(const T* a, const T* b, T* out) {                    \
    int i = threadIdx.x;                                                            \
    T x = a[i], y = b[i];                                                           \
    out[i] = expr;                                                                  \
  }
COUNT_KERNEL(hadd, __half, __hadd(x, y))
COUNT_KERNEL(hsub, __half, __hsub(x, y))
COUNT_KERNEL(hmul, __half, __hmul(x, y))
COUNT_KERNEL(hfma, __half, __hfma(x, y, x))
COUNT_KERNEL(hdiv, __half, __hdiv(x, y))
COUNT_KERNEL(hneg, __half, __hneg(x))
COUNT_KERNEL(habs, __half, __habs(x))
COUNT_KERNEL(hmax, __half, __hmax(x, y))
COUNT_KERNEL(hsqrt, __half, hsqrt(x))
COUNT_KERNEL(hexp, __half, hexp(x))
COUNT_KERNEL(hrcp, __half, hrcp(x))
COUNT_KERNEL(hadd2, __half2, __hadd2(x, y))
COUNT_KERNEL(hmul2, __half2, __hmul2(x, y))
COUNT_KERNEL(hfma2, __half2, __hfma2(x, y, x))
COUNT_KERNEL(half2float, __half, __float2half(__half2float(x) + __half2float(y)))
COUNT_KERNEL(badd, __nv_bfloat16, __hadd(x, y))
COUNT_KERNEL(bsub, __nv_bfloat16, __hsub(x, y))
COUNT_KERNEL(bmul, __nv_bfloat16, __hmul(x, y))
COUNT_KERNEL(bfma, __nv_bfloat16, __hfma(x, y, x))
COUNT_KERNEL(bneg, __nv_bfloat16, __hneg(x))
COUNT_KERNEL(bmax, __nv_bfloat16, __hmax(x, y))
COUNT_KERNEL(badd2, __nv_bfloat162, __hadd2(x, y))
COUNT_KERNEL(bmul2, __nv_bfloat162, __hmul2(x, y))
COUNT_KERNEL(bfma2, __nv_bfloat162, __hfma2(x, y, x))
COUNT_KERNEL(bf2float, __nv_bfloat16, __float2bfloat16(__bfloat162float(x) + __bfloat162float(y)))
COUNT_KERNEL(hops, __half, x * y + x - y)
COUNT_KERNEL(hlog, __half, hlog(x))
COUNT_KERNEL(hsin, __half, hsin(x))
COUNT_KERNEL(h2div, __half2, __h2div(x, y))
COUNT_KERNEL(h2exp, __half2, h2exp(x))
COUNT_KERNEL(babs, __nv_bfloat16, __habs(x))
COUNT_KERNEL(bdiv, __nv_bfloat16, __hdiv(x, y))
COUNT_KERNEL(bsqrt, __nv_bfloat16, hsqrt(x))
COUNT_KERNEL(bexp, __nv_bfloat16, hexp(x))
COUNT_KERNEL(bops, __nv_bfloat16, x * y + x - y)

__global__ void count_cgreduce(const float* a, const float* b, float* out) {
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(w, a[threadIdx.x], cg::plus<float>()) + b[threadIdx.x];
}
__global__ void count_cgreduce8(const float* a, const float* b, float* out) {
  cg::thread_block_tile<8> w = cg::tiled_partition<8>(cg::this_thread_block());
  out[threadIdx.x] = cg::reduce(w, a[threadIdx.x], cg::plus<float>()) + b[threadIdx.x];
}

template <class T> static void launch_count(void (*k)(const T*, const T*, T*), char* a, char* b, char* o) {
  k<<<1, 32>>>((const T*)a, (const T*)b, (T*)o);
}

static void count_tests() {
  char *a, *b, *o;
  CHECK(cudaMalloc(&a, 256));
  CHECK(cudaMalloc(&b, 256));
  CHECK(cudaMalloc(&o, 256));
  std::vector<unsigned char> init(256);
  for (int i = 0; i < 256; ++i) init[i] = (unsigned char)(i % 2 ? 0x3c : 0x40 + i % 7);
  CHECK(cudaMemcpy(a, init.data(), 256, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, init.data(), 256, cudaMemcpyHostToDevice));
#define LAUNCH(name, T) launch_count<T>(count_##name, a, b, o);
  LAUNCH(hadd, __half) LAUNCH(hsub, __half) LAUNCH(hmul, __half) LAUNCH(hfma, __half) LAUNCH(hdiv, __half)
  LAUNCH(hneg, __half) LAUNCH(habs, __half) LAUNCH(hmax, __half) LAUNCH(hsqrt, __half) LAUNCH(hexp, __half)
  LAUNCH(hrcp, __half) LAUNCH(hadd2, __half2) LAUNCH(hmul2, __half2) LAUNCH(hfma2, __half2)
  LAUNCH(half2float, __half) LAUNCH(badd, __nv_bfloat16) LAUNCH(bsub, __nv_bfloat16) LAUNCH(bmul, __nv_bfloat16)
  LAUNCH(bfma, __nv_bfloat16) LAUNCH(bneg, __nv_bfloat16) LAUNCH(bmax, __nv_bfloat16)
  LAUNCH(badd2, __nv_bfloat162) LAUNCH(bmul2, __nv_bfloat162) LAUNCH(bfma2, __nv_bfloat162)
  LAUNCH(bf2float, __nv_bfloat16) LAUNCH(hops, __half) LAUNCH(hlog, __half) LAUNCH(hsin, __half)
  LAUNCH(h2div, __half2) LAUNCH(h2exp, __half2) LAUNCH(babs, __nv_bfloat16) LAUNCH(bdiv, __nv_bfloat16)
  LAUNCH(bsqrt, __nv_bfloat16) LAUNCH(bexp, __nv_bfloat16) LAUNCH(bops, __nv_bfloat16)
  LAUNCH(cgreduce, float) LAUNCH(cgreduce8, float)
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(o));
}

int main(int argc, char** argv) {
  if (argc < 2) {
    std::printf("usage: %s OUTDIR [counts]\n", argv[0]);
    return 2;
  }
  g_dir = argv[1];
  if (argc > 2 && std::string(argv[2]) == "counts") {
    count_tests();
    std::printf("counting kernels done\n");
    return 0;
  }
  elementwise_tests<__half>("fp16");
  elementwise_tests<__nv_bfloat16>("bf16");
  conversion_tests();
  warp_tests();
  cg_tests();  // last: see its cooperative launch
  std::printf("halfcg_validate: all outputs written to %s\n", g_dir.c_str());
  return 0;
}
