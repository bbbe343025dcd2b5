// <cuda_fp8.h>'s conversions, every input: one program for nvcc (CUDA 13's own
// header) and for simtlab (sim/compiler/include/cuda_fp8.h), whose output lines must
// be identical (tests/cuda/fp8_conversions.sh, docs/validation/fp8-conversions.md).
//
// Host lines ("host ..."): FNV-1a hashes of the conversion of every float bit pattern
// (2^32, in 16 slices of 2^28 so that a difference is located), every half and every
// bfloat16, in both interpretations and both saturation modes; a stratified set of
// doubles (every rounding boundary of both formats, just below, on and above it,
// NaNs with payloads, infinities); fp8 -> half for all 256 codes (printed whole);
// every conversion operator and integer constructor of the classes.
// Device lines ("device ..."): the same conversions of the half, bfloat16 and fp8
// tables and of a stratified set of floats (every float whose low 16 bits are 0000,
// 0001, 7fff, 8000, 8001 or ffff: all the ties of both formats and their neighbours)
// computed in a kernel, with the host's answer beside: each input whose device answer
// differs from the host's is printed ("differs ..."). On simtlab both run simtlab's
// header; on a GPU (sm_89 and later) the device side is the hardware's cvt
// instructions: run there, the program is the probe of the device-side subtleties.
// With no GPU (nvcc here), the device lines are skipped.
//
//   nvcc -std=c++20 -O2 -arch=sm_90 -o fp8c tests/cuda/fp8_conversions.cu && ./fp8c
//   simt exec tests/cuda/fp8_conversions.cu
// Argument "quick": the float slices are left out (the rest takes a second).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

struct Hash {
  std::uint64_t h = 14695981039346656037ull;
  void add(std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) h = (h ^ ((v >> (8 * i)) & 0xFF)) * 1099511628211ull;
  }
};

const __nv_fp8_interpretation_t kInterp[2] = {__NV_E4M3, __NV_E5M2};
const __nv_saturation_t kSat[2] = {__NV_NOSAT, __NV_SATFINITE};
const char* const kInterpName[2] = {"E4M3", "E5M2"};
const char* const kSatName[2] = {"NOSAT", "SATFINITE"};

float bits_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
double bits_double(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
std::uint64_t double_bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}
__half half_of(unsigned short b) {
  __half_raw r;
  r.x = b;
  return __half(r);
}
__nv_bfloat16 bf16_of(unsigned short b) {
  __nv_bfloat16_raw r;
  r.x = b;
  return __nv_bfloat16(r);
}

// The stratified floats: all high halves, low halves from this list.
constexpr std::uint32_t kStrata = 6 * 65536;
__host__ __device__ std::uint32_t stratum(std::uint32_t i) {
  const std::uint32_t low[6] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
  return (i / 6) << 16 | low[i % 6];
}

// Doubles around every rounding boundary: for each pair of neighbouring fp8 values
// (both formats, and the overflow thresholds), the midpoint and its neighbours
// 1 ulp and 2^-20 relative away, both signs; NaNs with payloads; infinities.
std::vector<double> double_strata() {
  std::vector<double> v;
  for (int k = 0; k < 2; ++k) {
    std::vector<double> values;
    for (int c = 0; c < 0x80; ++c) {
      __nv_fp8_storage_t s = (__nv_fp8_storage_t)c;
      __half_raw h = __nv_cvt_fp8_to_halfraw(s, kInterp[k]);
      const float f = __half2float(__half(h));
      if (std::isfinite(f)) values.push_back(f);
    }
    values.push_back(k == 0 ? 480.0 : 65536.0);  // the first value past the largest
    for (std::size_t i = 0; i + 1 < values.size(); ++i) {
      const double mid = (values[i] + values[i + 1]) / 2;
      for (double x : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300), mid * (1 - 0x1p-20),
                       mid * (1 + 0x1p-20), values[i]})
        for (double s : {1.0, -1.0}) v.push_back(s * x);
    }
  }
  for (std::uint64_t payload : {1ull, 1ull << 50, 2ull << 50, 3ull << 50, (1ull << 51) - 1, (1ull << 52) - 1})
    for (std::uint64_t sign : {0ull, 1ull << 63}) v.push_back(bits_double(sign | 0x7FF0000000000000ull | payload));
  for (double x : {double(INFINITY), -double(INFINITY), 0.0, -0.0, 1e300, -1e300, 4.9e-324, 1e-30, 0x1p-10, 0x1p-17, 0x1p-18})
    v.push_back(x);
  return v;
}

// Every conversion operator of one fp8 class, hashed over the 256 codes.
template <class Fp8> void class_operators(const char* name) {
  Hash h[17];
  for (int c = 0; c < 256; ++c) {
    Fp8 v;
    v.__x = (__nv_fp8_storage_t)c;
    h[0].add(float_bits(float(v)), 4);
    h[1].add(__half_as_ushort(__half(v)), 2);
    h[2].add(__bfloat16_as_ushort(__nv_bfloat16(v)), 2);
    h[3].add(double_bits(double(v)), 8);
    h[4].add((unsigned char)(v), 1);
    h[5].add((unsigned short)(v), 2);
    h[6].add((unsigned int)(v), 4);
    h[7].add((unsigned long)(v), 8);
    h[8].add((unsigned long long)(v), 8);
    h[9].add((unsigned char)(signed char)(v), 1);
    h[10].add((unsigned char)(char)(v), 1);
    h[11].add((unsigned short)(short)(v), 2);
    h[12].add((unsigned)(int)(v), 4);
    h[13].add((unsigned long)(long)(v), 8);
    h[14].add((unsigned long long)(long long)(v), 8);
    h[15].add(bool(v), 1);
  }
  const char* ops[16] = {"float", "half", "bfloat16", "double", "uchar", "ushort", "uint", "ulong", "ull",
                         "schar", "char", "short", "int", "long", "ll", "bool"};
  for (int i = 0; i < 16; ++i) printf("host %s operator %s %016llx\n", name, ops[i], (unsigned long long)h[i].h);
  // Constructors from integers (through float) and from half, bfloat16, float, double.
  Hash ints, halves, bf16s, floats, doubles;
  for (long long i = -70000; i <= 70000; ++i) {
    ints.add(Fp8((int)i).__x, 1);
    ints.add(Fp8((long long)i * 1000003).__x, 1);
    ints.add(Fp8((short)i).__x, 1);
    ints.add(Fp8((unsigned)i).__x, 1);
    ints.add(Fp8((unsigned long long)i).__x, 1);
  }
  for (unsigned b = 0; b < 65536; ++b) {
    halves.add(Fp8(half_of((unsigned short)b)).__x, 1);
    bf16s.add(Fp8(bf16_of((unsigned short)b)).__x, 1);
  }
  for (std::uint32_t i = 0; i < kStrata; ++i) floats.add(Fp8(bits_float(stratum(i))).__x, 1);
  for (double d : double_strata()) doubles.add(Fp8(d).__x, 1);
  printf("host %s from-int %016llx from-half %016llx from-bfloat16 %016llx from-float %016llx from-double %016llx\n",
         name, (unsigned long long)ints.h, (unsigned long long)halves.h, (unsigned long long)bf16s.h,
         (unsigned long long)floats.h, (unsigned long long)doubles.h);
}

template <class X2, class X4> void vector_classes(const char* name) {
  Hash h2, h4, back;
  for (std::uint32_t i = 0; i + 3 < kStrata; i += 3) {
    const float a = bits_float(stratum(i)), b = bits_float(stratum(i + 1)), c = bits_float(stratum(i + 2));
    h2.add(X2(make_float2(a, b)).__x, 2);
    h2.add(X2(__floats2half2_rn(a, c)).__x, 2);
    h2.add(X2(__floats2bfloat162_rn(b, c)).__x, 2);
    h4.add(X4(make_float4(a, b, c, -a)).__x, 4);
    h4.add(X4(__floats2half2_rn(a, b), __floats2half2_rn(c, a)).__x, 4);
  }
  for (std::uint32_t c = 0; c < 65536; c += 7) {
    X2 v;
    v.__x = (__nv_fp8x2_storage_t)c;
    const float2 f = static_cast<float2>(v);
    const __half2 hh = static_cast<__half2>(v);
    back.add(float_bits(f.x), 4);
    back.add(float_bits(f.y), 4);
    back.add(__half_as_ushort(__low2half(hh)), 2);
    back.add(__half_as_ushort(__high2half(hh)), 2);
    X4 w;
    w.__x = c * 40503u;
    const float4 q = static_cast<float4>(w);
    back.add(float_bits(q.x), 4);
    back.add(float_bits(q.w), 4);
  }
  printf("host %s x2 %016llx x4 %016llx widen %016llx\n", name, (unsigned long long)h2.h, (unsigned long long)h4.h,
         (unsigned long long)back.h);
}

// ---- device side -------------------------------------------------------------
// out layout per (k, s): halves 65536, bfloat16s 65536, strata kStrata; then fp8 ->
// half 2 x 256, fp8 -> float 2 x 256.
constexpr std::uint32_t kPerMode = 65536 + 65536 + kStrata;

__global__ void device_convert(unsigned char* out, unsigned short* halves, unsigned* floats,
                               unsigned long long* ints) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kStrata) {
    const float f = __uint_as_float(stratum(i));
    for (int m = 0; m < 4; ++m)
      out[m * kPerMode + 131072 + i] =
          __nv_cvt_float_to_fp8(f, m % 2 ? __NV_SATFINITE : __NV_NOSAT, m / 2 ? __NV_E5M2 : __NV_E4M3);
  }
  if (i < 65536) {
    __half_raw h;
    h.x = (unsigned short)i;
    __nv_bfloat16_raw b;
    b.x = (unsigned short)i;
    for (int m = 0; m < 4; ++m) {
      const __nv_saturation_t s = m % 2 ? __NV_SATFINITE : __NV_NOSAT;
      const __nv_fp8_interpretation_t k = m / 2 ? __NV_E5M2 : __NV_E4M3;
      out[m * kPerMode + i] = __nv_cvt_halfraw_to_fp8(h, s, k);
      out[m * kPerMode + 65536 + i] = __nv_cvt_bfloat16raw_to_fp8(b, s, k);
    }
  }
  if (i < 256) {
    halves[i] = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)i, __NV_E4M3).x;
    halves[256 + i] = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)i, __NV_E5M2).x;
    __nv_fp8_e4m3 a;
    a.__x = (__nv_fp8_storage_t)i;
    __nv_fp8_e5m2 b;
    b.__x = (__nv_fp8_storage_t)i;
    floats[i] = __float_as_uint(float(a));
    floats[256 + i] = __float_as_uint(float(b));
    // 64-bit integers of a NaN: 0x8000000000000000 in CUDA 13's host code.
    ints[i] = (unsigned long long)(long long)a;
    ints[256 + i] = (unsigned long long)a;
    ints[512 + i] = (unsigned long long)(long long)b;
    ints[768 + i] = (unsigned long long)b;
  }
}

void device_side() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("device skipped: no GPU\n");
    return;
  }
  unsigned char* d_out;
  unsigned short* d_halves;
  unsigned* d_floats;
  unsigned long long* d_ints;
  cudaMalloc(&d_ints, 1024 * 8);
  cudaMalloc(&d_out, 4 * kPerMode);
  cudaMalloc(&d_halves, 512 * 2);
  cudaMalloc(&d_floats, 512 * 4);
  device_convert<<<(kStrata + 255) / 256, 256>>>(d_out, d_halves, d_floats, d_ints);
  std::vector<unsigned char> out(4 * kPerMode);
  std::vector<unsigned short> halves(512);
  std::vector<unsigned> floats(512);
  std::vector<unsigned long long> ints(1024);
  cudaMemcpy(ints.data(), d_ints, 1024 * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(out.data(), d_out, out.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(halves.data(), d_halves, 512 * 2, cudaMemcpyDeviceToHost);
  cudaMemcpy(floats.data(), d_floats, 512 * 4, cudaMemcpyDeviceToHost);
  if (cudaGetLastError() != cudaSuccess) {
    printf("device failed\n");
    return;
  }
  int shown = 0;
  for (int m = 0; m < 4; ++m) {
    const __nv_saturation_t s = kSat[m % 2];
    const __nv_fp8_interpretation_t k = kInterp[m / 2];
    Hash hh, hb, hf;
    for (std::uint32_t i = 0; i < kPerMode; ++i) {
      const unsigned char got = out[m * kPerMode + i];
      unsigned char want;
      const char* what;
      std::uint32_t input;
      if (i < 65536) {
        __half_raw h;
        h.x = (unsigned short)i;
        want = __nv_cvt_halfraw_to_fp8(h, s, k), what = "half", input = i;
        hh.add(got, 1);
      } else if (i < 131072) {
        __nv_bfloat16_raw b;
        b.x = (unsigned short)(i - 65536);
        want = __nv_cvt_bfloat16raw_to_fp8(b, s, k), what = "bfloat16", input = i - 65536;
        hb.add(got, 1);
      } else {
        input = stratum(i - 131072);
        want = __nv_cvt_float_to_fp8(bits_float(input), s, k), what = "float";
        hf.add(got, 1);
      }
      if (got != want && shown++ < 40)
        printf("differs %s %08x %s %s: device %02x host %02x\n", what, input, kInterpName[m / 2], kSatName[m % 2], got,
               want);
    }
    printf("device %s %s half %016llx bfloat16 %016llx float-strata %016llx\n", kInterpName[m / 2], kSatName[m % 2],
           (unsigned long long)hh.h, (unsigned long long)hb.h, (unsigned long long)hf.h);
  }
  for (int k = 0; k < 2; ++k) {
    printf("device fp8-to-half %s", kInterpName[k]);
    for (int c = 0; c < 256; ++c) printf(" %04x", halves[k * 256 + c]);
    printf("\n");
    for (int c = 0; c < 256; ++c) {
      const unsigned short want = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, kInterp[k]).x;
      if (halves[k * 256 + c] != want)
        printf("differs fp8-to-half %s %02x: device %04x host %04x\n", kInterpName[k], c, halves[k * 256 + c], want);
      __nv_fp8_e4m3 a;
      a.__x = (__nv_fp8_storage_t)c;
      __nv_fp8_e5m2 b;
      b.__x = (__nv_fp8_storage_t)c;
      const unsigned fwant = float_bits(k ? float(b) : float(a));
      if (floats[k * 256 + c] != fwant)
        printf("differs fp8-to-float %s %02x: device %08x host %08x\n", kInterpName[k], c, floats[k * 256 + c], fwant);
      const unsigned long long lwant = k ? (unsigned long long)(long long)b : (unsigned long long)(long long)a;
      const unsigned long long uwant = k ? (unsigned long long)b : (unsigned long long)a;
      if (ints[k * 512 + c] != lwant || ints[k * 512 + 256 + c] != uwant)
        printf("differs fp8-to-ll/ull %s %02x: device %llx %llx host %llx %llx\n", kInterpName[k], c, ints[k * 512 + c],
               ints[k * 512 + 256 + c], lwant, uwant);
    }
  }
  cudaFree(d_out);
  cudaFree(d_halves);
  cudaFree(d_floats);
  cudaFree(d_ints);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "quick") == 0;
  for (int k = 0; k < 2; ++k)
    for (int s = 0; s < 2; ++s) {
      const char* mode = kInterpName[k];
      const char* sat = kSatName[s];
      if (!quick)
        for (std::uint32_t slice = 0; slice < 16; ++slice) {
          Hash h;
          const std::uint32_t lo = slice << 28;
          for (std::uint32_t b = lo;; ++b) {
            h.add(__nv_cvt_float_to_fp8(bits_float(b), kSat[s], kInterp[k]), 1);
            if (b == lo + 0x0FFFFFFFu) break;
          }
          printf("host float %s %s %x0000000 %016llx\n", mode, sat, slice, (unsigned long long)h.h);
        }
      Hash strata, halves, bf16s, doubles, pairs;
      for (std::uint32_t i = 0; i < kStrata; ++i)
        strata.add(__nv_cvt_float_to_fp8(bits_float(stratum(i)), kSat[s], kInterp[k]), 1);
      for (std::uint32_t b = 0; b < 65536; ++b) {
        __half_raw h;
        h.x = (unsigned short)b;
        __nv_bfloat16_raw r;
        r.x = (unsigned short)b;
        halves.add(__nv_cvt_halfraw_to_fp8(h, kSat[s], kInterp[k]), 1);
        bf16s.add(__nv_cvt_bfloat16raw_to_fp8(r, kSat[s], kInterp[k]), 1);
        __half2_raw h2;
        h2.x = (unsigned short)b;
        h2.y = (unsigned short)(b * 40503u);
        pairs.add(__nv_cvt_halfraw2_to_fp8x2(h2, kSat[s], kInterp[k]), 2);
        __nv_bfloat162_raw b2;
        b2.x = (unsigned short)(b * 40503u);
        b2.y = (unsigned short)b;
        pairs.add(__nv_cvt_bfloat16raw2_to_fp8x2(b2, kSat[s], kInterp[k]), 2);
      }
      for (std::uint32_t i = 0; i + 1 < kStrata; i += 2)
        pairs.add(__nv_cvt_float2_to_fp8x2(make_float2(bits_float(stratum(i)), bits_float(stratum(i + 1))), kSat[s],
                                           kInterp[k]),
                  2);
      const std::vector<double> ds = double_strata();
      for (double d : ds) doubles.add(__nv_cvt_double_to_fp8(d, kSat[s], kInterp[k]), 1);
      for (std::size_t i = 0; i + 1 < ds.size(); i += 2)
        pairs.add(__nv_cvt_double2_to_fp8x2(make_double2(ds[i], ds[i + 1]), kSat[s], kInterp[k]), 2);
      printf("host %s %s float-strata %016llx half %016llx bfloat16 %016llx double %016llx (%zu) pairs %016llx\n", mode,
             sat, (unsigned long long)strata.h, (unsigned long long)halves.h, (unsigned long long)bf16s.h,
             (unsigned long long)doubles.h, ds.size(), (unsigned long long)pairs.h);
    }
  for (int k = 0; k < 2; ++k) {
    printf("host fp8-to-half %s", kInterpName[k]);
    for (int c = 0; c < 256; ++c) printf(" %04x", __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)c, kInterp[k]).x);
    printf("\n");
    Hash pairs;
    for (std::uint32_t c = 0; c < 65536; ++c) {
      const __half2_raw r = __nv_cvt_fp8x2_to_halfraw2((__nv_fp8x2_storage_t)c, kInterp[k]);
      pairs.add(r.x, 2);
      pairs.add(r.y, 2);
    }
    printf("host fp8x2-to-half2 %s %016llx\n", kInterpName[k], (unsigned long long)pairs.h);
  }
  class_operators<__nv_fp8_e4m3>("e4m3");
  class_operators<__nv_fp8_e5m2>("e5m2");
  vector_classes<__nv_fp8x2_e4m3, __nv_fp8x4_e4m3>("e4m3");
  vector_classes<__nv_fp8x2_e5m2, __nv_fp8x4_e5m2>("e5m2");
  device_side();
  return 0;
}
