// <cuda_fp8.h> and the integer dot products (__dp4a, __dp2a_lo/_hi) in device code.
// The fp8 answers are known answers of CUDA 13's own header (nvcc 13.0, host code:
// tests/cuda/fp8_conversions.cu prints them; docs/validation/fp8-conversions.md);
// the dot products are checked against a scalar reference.
#include "sim_test_util.hpp"

#include <cuda_fp8.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using namespace simt;
using simt::test::last;

namespace {

struct ToFp8 {
  std::uint32_t float_bits;
  int e5m2, satfinite;
  unsigned want;
};
// Rounding ties and their neighbours, overflow thresholds, subnormals, NaN, inf.
const ToFp8 kToFp8[] = {
    {0x3f880000, 0, 0, 0x38},  // 1.0625: tie between 1 and 1.125, to even 1.0
    {0x3f980000, 0, 0, 0x3a},  // 1.1875: tie, to even 1.25
    {0x3f880001, 0, 0, 0x39},  // just above the tie: 1.125
    {0x43e00000, 0, 0, 0x7e},  // 448, the largest E4M3
    {0x43e80000, 0, 0, 0x7e},  // 464: the tie above 448 goes to even 448
    {0x43e80001, 0, 0, 0x7f},  // above: NaN without saturation
    {0x43e80001, 0, 1, 0x7e},  //        448 with it
    {0xc3e80001, 0, 1, 0xfe},  // -448
    {0x7f800000, 0, 0, 0x7f},  // +inf: NaN (E4M3 has no inf)
    {0xff800000, 0, 1, 0xfe},  // -inf saturates
    {0x3a800000, 0, 0, 0x00},  // 2^-10, half the smallest subnormal: ties to +0
    {0xba800000, 0, 0, 0x80},  //  -2^-10: -0
    {0x3a800001, 0, 0, 0x01},  // just above: 2^-9
    {0x3b400000, 0, 0, 0x02},  // 3 * 2^-10: tie between 2^-9 and 2^-8, to even 2^-8
    {0x7fc00000, 0, 0, 0x7f},  // NaN
    {0xffc00001, 0, 1, 0x7f},  // a negative NaN: canonical, sign dropped
    {0x47600000, 1, 0, 0x7b},  // 57344, the largest E5M2
    {0x47700000, 1, 0, 0x7c},  // 61440: the tie rounds to even: inf
    {0x47700000, 1, 1, 0x7b},  //        saturated
    {0x476fffff, 1, 0, 0x7b},  // just below the tie
    {0xff800000, 1, 0, 0xfc},  // -inf
    {0x37000000, 1, 0, 0x00},  // 2^-17, half the smallest subnormal: +0
    {0x37000001, 1, 0, 0x01},  // 2^-16
    {0x3f900000, 1, 0, 0x3c},  // 1.125: tie between 1 and 1.25, to even 1.0
    {0x7f800001, 1, 1, 0x7f},  // NaN
};

__global__ void to_fp8(const float* x, const int* mode, unsigned char* out, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  out[i] = __nv_cvt_float_to_fp8(x[i], mode[i] & 1 ? __NV_SATFINITE : __NV_NOSAT, mode[i] & 2 ? __NV_E5M2 : __NV_E4M3);
}

__global__ void widen(const __nv_fp8_e4m3* a, const __nv_fp8_e5m2* b, float* fa, float* fb, unsigned short* ha,
                      long long* la, unsigned long long* ub) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  fa[i] = float(a[i]);
  fb[i] = float(b[i]);
  ha[i] = __half_as_ushort(__half(a[i]));
  la[i] = (long long)a[i];
  ub[i] = (unsigned long long)b[i];
}

__global__ void dots(const int* a, const int* b, const int* c, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[6 * i + 0] = __dp4a(a[i], b[i], c[i]);
  out[6 * i + 1] = int(__dp4a(unsigned(a[i]), unsigned(b[i]), unsigned(c[i])));
  out[6 * i + 2] = __dp2a_lo(a[i], b[i], c[i]);
  out[6 * i + 3] = int(__dp2a_hi(unsigned(a[i]), unsigned(b[i]), unsigned(c[i])));
  const char4 ca = *reinterpret_cast<const char4*>(&a[i]), cb = *reinterpret_cast<const char4*>(&b[i]);
  out[6 * i + 4] = __dp4a(ca, cb, c[i]);
  const short2 sa = *reinterpret_cast<const short2*>(&a[i]);
  out[6 * i + 5] = __dp2a_hi(sa, cb, c[i]);
}

// One and two dot products per thread on the same loads: the difference is one
// instruction (IDP.4A) per thread.
__global__ void one_dp4a(const int* a, const int* b, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __dp4a(a[i], b[i], 0);
}
__global__ void two_dp4a(const int* a, const int* b, int* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __dp4a(a[i], b[i], __dp4a(b[i], a[i], 0));
}

std::int64_t byte(std::uint32_t v, int i, bool is_signed) {
  const std::uint32_t b = (v >> (8 * i)) & 0xFF;
  return is_signed ? std::int64_t(std::int8_t(b)) : std::int64_t(b);
}
std::int64_t half16(std::uint32_t v, int i, bool is_signed) {
  const std::uint32_t h = (v >> (16 * i)) & 0xFFFF;
  return is_signed ? std::int64_t(std::int16_t(h)) : std::int64_t(h);
}

}  // namespace

TEST_CASE("cuda_fp8.h: float -> fp8 rounding, saturation and NaN give CUDA 13's bits in a kernel") {
  const int n = int(std::size(kToFp8));
  std::vector<float> x(n);
  std::vector<int> mode(n);
  for (int i = 0; i < n; ++i) {
    std::memcpy(&x[i], &kToFp8[i].float_bits, 4);
    mode[i] = kToFp8[i].satfinite | kToFp8[i].e5m2 << 1;
  }
  float* dx;
  int* dm;
  unsigned char* dout;
  cudaMalloc(&dx, n * 4);
  cudaMalloc(&dm, n * 4);
  cudaMalloc(&dout, n);
  cudaMemcpy(dx, x.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dm, mode.data(), n * 4, cudaMemcpyHostToDevice);
  to_fp8<<<1, 32>>>(dx, dm, dout, n);
  std::vector<unsigned char> out(n);
  cudaMemcpy(out.data(), dout, n, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    CAPTURE(kToFp8[i].float_bits);
    CHECK(unsigned(out[i]) == kToFp8[i].want);
  }
  cudaFree(dx);
  cudaFree(dm);
  cudaFree(dout);
  // Host code runs the same header: the double path keeps a NaN's sign (E4M3) and
  // its top payload bits (E5M2).
  CHECK(__nv_cvt_double_to_fp8(-__builtin_nan(""), __NV_NOSAT, __NV_E4M3) == 0xff);
  CHECK(__nv_cvt_double_to_fp8(__builtin_nan(""), __NV_NOSAT, __NV_E5M2) == 0x7e);
  CHECK(__nv_fp8_e4m3(1000).__x == 0x7e);  // integers: through float, saturated
  CHECK(__nv_fp8_e5m2(-100000LL).__x == 0xfb);
  CHECK(__nv_cvt_float2_to_fp8x2(make_float2(1.0f, -2.0f), __NV_SATFINITE, __NV_E4M3) == 0xc038);
}

TEST_CASE("cuda_fp8.h: fp8 -> half, float and 64-bit integers for all 256 codes; 1-byte loads, one hadd each") {
  std::vector<unsigned char> codes(256);
  for (int c = 0; c < 256; ++c) codes[c] = (unsigned char)c;
  unsigned char *da, *db;
  float *fa, *fb;
  unsigned short* ha;
  long long* la;
  unsigned long long* ub;
  cudaMalloc(&da, 256);
  cudaMalloc(&db, 256);
  cudaMalloc(&fa, 256 * 4);
  cudaMalloc(&fb, 256 * 4);
  cudaMalloc(&ha, 256 * 2);
  cudaMalloc(&la, 256 * 8);
  cudaMalloc(&ub, 256 * 8);
  cudaMemcpy(da, codes.data(), 256, cudaMemcpyHostToDevice);
  cudaMemcpy(db, codes.data(), 256, cudaMemcpyHostToDevice);
  widen<<<2, 128>>>(reinterpret_cast<__nv_fp8_e4m3*>(da), reinterpret_cast<__nv_fp8_e5m2*>(db), fa, fb, ha, la, ub);
  // Per warp: 5 one-byte loads of 32 consecutive bytes (one sector each) — a[i] is
  // read by 3 operators, b[i] by 2; float(), and __half -> integer for the integer
  // operators, widen through a half: fp8 -> float is one hadd (HADD2.F32), 2 per thread.
  CHECK(last(Counter::GlobalLdRequests) == 8 * 5);
  CHECK(last(Counter::GlobalLdSectors) == 8 * 5);
  CHECK(last(Counter::HAdd) == 256 * 2);
  std::vector<std::uint32_t> a(256), b(256);
  std::vector<unsigned short> h(256);
  std::vector<long long> l(256);
  std::vector<unsigned long long> u(256);
  cudaMemcpy(a.data(), fa, 256 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), fb, 256 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(h.data(), ha, 256 * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(l.data(), la, 256 * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(u.data(), ub, 256 * 8, cudaMemcpyDeviceToHost);
  // Known answers of nvcc 13's host code.
  CHECK(h[0x01] == 0x1800);  // 2^-9
  CHECK(h[0x07] == 0x2300);  // 7 * 2^-9
  CHECK(h[0x08] == 0x2400);  // 2^-6
  CHECK(h[0x7e] == 0x5f00);  // 448
  CHECK(h[0xfe] == 0xdf00);
  CHECK(h[0x7f] == 0x7fff);  // NaN
  CHECK(h[0xff] == 0x7fff);  // NaN, sign dropped
  CHECK(a[0x7f] == 0x7fffffffu);
  CHECK(a[0x38] == 0x3f800000u);  // 1.0
  CHECK(b[0x7c] == 0x7f800000u);  // E5M2 inf
  CHECK(b[0xfd] == 0x7fffffffu);  // E5M2 NaN
  CHECK(b[0x01] == 0x37800000u);  // 2^-16
  CHECK(b[0x7b] == 0x47600000u);  // 57344
  CHECK(l[0x7e] == 448);
  CHECK(l[0xfe] == -448);
  CHECK(l[0x7f] == (long long)0x8000000000000000ull);  // NaN: 64-bit conversions give the top bit
  CHECK(u[0x7c] == ~0ull);                             // inf saturates
  CHECK(u[0xfc] == 0);                                 // -inf: 0
  CHECK(u[0x7e] == 0x8000000000000000ull);             // NaN
  CHECK(u[0x3c] == 1);
  for (auto* p : {(void*)da, (void*)db, (void*)fa, (void*)fb, (void*)ha, (void*)la, (void*)ub}) cudaFree(p);
}

TEST_CASE("__dp4a, __dp2a_lo, __dp2a_hi: every form against a scalar reference") {
  const int n = 1024;
  std::mt19937 rng(7);
  std::vector<int> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) a[i] = int(rng()), b[i] = int(rng()), c[i] = int(rng());
  a[0] = b[0] = int(0x80808080u), c[0] = 0x7fffffff;  // -128 * -128 * 4 + INT_MAX: wraps
  a[1] = b[1] = -1, c[1] = 0;                           // unsigned: 4 * 255^2
  int *da, *db, *dc, *dout;
  cudaMalloc(&da, n * 4);
  cudaMalloc(&db, n * 4);
  cudaMalloc(&dc, n * 4);
  cudaMalloc(&dout, 6 * n * 4);
  cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), n * 4, cudaMemcpyHostToDevice);
  dots<<<n / 128, 128>>>(da, db, dc, dout);
  std::vector<int> out(6 * n);
  cudaMemcpy(out.data(), dout, 6 * n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    CAPTURE(i);
    const auto ua = std::uint32_t(a[i]), ub = std::uint32_t(b[i]), uc = std::uint32_t(c[i]);
    std::int64_t s4 = 0, u4 = 0;
    for (int k = 0; k < 4; ++k) s4 += byte(ua, k, true) * byte(ub, k, true), u4 += byte(ua, k, false) * byte(ub, k, false);
    const std::int64_t s2lo = half16(ua, 0, true) * byte(ub, 0, true) + half16(ua, 1, true) * byte(ub, 1, true);
    const std::int64_t u2hi = half16(ua, 0, false) * byte(ub, 2, false) + half16(ua, 1, false) * byte(ub, 3, false);
    const std::int64_t s2hi = half16(ua, 0, true) * byte(ub, 2, true) + half16(ua, 1, true) * byte(ub, 3, true);
    CHECK(std::uint32_t(out[6 * i + 0]) == std::uint32_t(s4 + std::int64_t(c[i])));
    CHECK(std::uint32_t(out[6 * i + 1]) == std::uint32_t(u4 + uc));
    CHECK(std::uint32_t(out[6 * i + 2]) == std::uint32_t(s2lo + std::int64_t(c[i])));
    CHECK(std::uint32_t(out[6 * i + 3]) == std::uint32_t(u2hi + uc));
    CHECK(out[6 * i + 4] == out[6 * i + 0]);
    CHECK(std::uint32_t(out[6 * i + 5]) == std::uint32_t(s2hi + std::int64_t(c[i])));
  }
  CHECK(out[0] == int(0x7fffffffu + 4u * 16384u));
  CHECK(std::uint32_t(out[6 + 1]) == 4u * 255u * 255u);
  // Counted as one integer instruction each (the marker of simt_cuda/markers.h), no
  // FP counter. The second __dp4a adds its IDP.4A, and here one more: the optimizer
  // merges an add of the two inlined sums into one without a source line, which the
  // estimate charges to the kernel (docs/counters.md: an estimate, read to +-25%).
  one_dp4a<<<n / 128, 128>>>(da, db, dout);
  const std::uint64_t one = last(Counter::InstExecuted);
  CHECK(last(Counter::FAdd) + last(Counter::FFma) + last(Counter::FMul) + last(Counter::HAdd) == 0);
  two_dp4a<<<n / 128, 128>>>(da, db, dout);
  INFO("one " << one << " two " << last(Counter::InstExecuted));
  CHECK(last(Counter::InstExecuted) - one >= n / 32);
  CHECK(last(Counter::InstExecuted) - one <= 2 * n / 32);
  for (int* p : {da, db, dc, dout}) cudaFree(p);
}
