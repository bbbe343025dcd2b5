// Counter rules on canonical patterns. Each expected value is derived in the
// comment above its check from the definitions in docs/counters.md; the same
// launches are measured with Nsight Compute in docs/validation/.
#include "sim_test_util.hpp"
#include "tests/cuda/patterns.cuh"

using namespace simt;
using simt::test::DeviceArray;
using simt::test::last;
using simt::test::last_launch;

namespace {
constexpr int kThreads = 1024;  // 32 warps
constexpr int kWarps = kThreads / 32;
}  // namespace

TEST_CASE("global loads: sectors per request follow the stride") {
  DeviceArray<float> in(kThreads * 33 + 64), out(kThreads);
  // A warp's 32 lanes read 4-byte words `stride` floats apart: the span is
  // 128*stride bytes; a 32-byte sector holds 8 floats, so a warp touches
  // min(32, 4*stride) sectors. The contiguous store is always 4 sectors.
  struct Case { int stride; std::uint64_t sectors_per_request; };
  for (Case c : {Case{1, 4}, Case{2, 8}, Case{4, 16}, Case{8, 32}, Case{32, 32}}) {
    CAPTURE(c.stride);
    load_strided<<<kThreads / 256, 256>>>(in.ptr, out.ptr, c.stride, 0);
    CHECK(last(Counter::GlobalLdRequests) == kWarps);
    CHECK(last(Counter::GlobalLdSectors) == kWarps * c.sectors_per_request);
    CHECK(last(Counter::GlobalStRequests) == kWarps);
    CHECK(last(Counter::GlobalStSectors) == kWarps * 4);
  }
}

TEST_CASE("global loads: misalignment by 4 bytes costs a fifth sector, by 32 bytes nothing") {
  DeviceArray<float> in(kThreads + 64), out(kThreads);
  // offset 1 float: bytes [4, 132) of a 256-aligned base -> sectors 0..4 = 5.
  load_strided<<<kThreads / 256, 256>>>(in.ptr, out.ptr, 1, 1);
  CHECK(last(Counter::GlobalLdSectors) == kWarps * 5);
  // offset 8 floats = 32 bytes: still sector aligned -> 4 sectors.
  load_strided<<<kThreads / 256, 256>>>(in.ptr, out.ptr, 1, 8);
  CHECK(last(Counter::GlobalLdSectors) == kWarps * 4);
}

TEST_CASE("global loads: a broadcast is one sector; float4 is one request of 16 sectors") {
  DeviceArray<float> in(kThreads * 4), out(kThreads * 4);
  load_broadcast<<<kThreads / 256, 256>>>(in.ptr, out.ptr);
  CHECK(last(Counter::GlobalLdRequests) == kWarps);
  CHECK(last(Counter::GlobalLdSectors) == kWarps * 1);
  // 32 lanes x 16 bytes = 512 contiguous bytes = 16 sectors, in ONE request.
  load_float4<<<kThreads / 256, 256>>>(reinterpret_cast<float4*>(in.ptr), reinterpret_cast<float4*>(out.ptr));
  CHECK(last(Counter::GlobalLdRequests) == kWarps);
  CHECK(last(Counter::GlobalLdSectors) == kWarps * 16);
  CHECK(last(Counter::GlobalStSectors) == kWarps * 16);
  CHECK(last(Counter::GlobalLdBytes) == kThreads * 16);
}

TEST_CASE("shared memory: wavefronts are the worst bank's distinct words") {
  DeviceArray<float> out(32);
  // Lane t touches word t*stride, bank (t*stride) mod 32. For stride 2^k <= 32,
  // gcd(stride, 32) = stride lanes share each used bank, each at a different
  // word: `stride` wavefronts. Stride 33 = 1 mod 32: every lane its own bank.
  struct Case { int stride; std::uint64_t wavefronts; };
  for (Case c : {Case{1, 1}, Case{2, 2}, Case{4, 4}, Case{8, 8}, Case{16, 16}, Case{32, 32}, Case{33, 1}}) {
    CAPTURE(c.stride);
    shared_stride<<<1, 32>>>(out.ptr, c.stride);
    CHECK(last(Counter::SharedStInst) == 1);
    CHECK(last(Counter::SharedLdInst) == 1);
    CHECK(last(Counter::SharedStWavefronts) == c.wavefronts);
    CHECK(last(Counter::SharedLdWavefronts) == c.wavefronts);
    CHECK(last(Counter::SharedLdConflicts) == c.wavefronts - 1);
    CHECK(last(Counter::SharedStConflicts) == c.wavefronts - 1);
  }
}

TEST_CASE("shared memory: 8-byte accesses go per half-warp") {
  DeviceArray<double> out(32);
  // Stride 1: each half-warp reads 16 x 8 = 128 contiguous bytes, all 32 banks
  // once: 1 wavefront per half, 2 in all, ideal 2, no conflict.
  shared_stride_f64<<<1, 32>>>(out.ptr, 1);
  CHECK(last(Counter::SharedLdWavefronts) == 2);
  CHECK(last(Counter::SharedLdConflicts) == 0);
  // Stride 2: lane t covers words 4t, 4t+1; within a half-warp lanes t and t+8
  // share banks at different words: 2 wavefronts per half, 4 in all, 2 extra.
  shared_stride_f64<<<1, 32>>>(out.ptr, 2);
  CHECK(last(Counter::SharedLdWavefronts) == 4);
  CHECK(last(Counter::SharedLdConflicts) == 2);
}

TEST_CASE("shared memory: a broadcast read is one wavefront") {
  DeviceArray<float> out(32);
  shared_broadcast<<<1, 32>>>(out.ptr);
  CHECK(last(Counter::SharedLdWavefronts) == 1);
  CHECK(last(Counter::SharedLdConflicts) == 0);
}

TEST_CASE("FLOPs: a*b+c is FMUL+FADD, fmaf is one FFMA") {
  DeviceArray<float> a(kThreads), b(kThreads), out(kThreads);
  flops_mul_add_fma<<<kThreads / 256, 256>>>(a.ptr, b.ptr, out.ptr);
  CHECK(last(Counter::FMul) == kThreads);
  CHECK(last(Counter::FAdd) == kThreads);
  CHECK(last(Counter::FFma) == kThreads);
  CHECK(last_launch().totals.flops() == 4u * kThreads);
  auto h = out.host();
  float x = 5, y = 5;  // element 5 of a and b holds 5
  CHECK(h[5] == std::fma(x * y + x, y, x));
}

TEST_CASE("shared memory: 16-byte accesses go per half-warp") {
  DeviceArray<float> out(32);
  // Stores s[t] and s[32+t]: each half-warp writes 16 x 16 = 256 contiguous bytes,
  // two words in every bank: 2 wavefronts per half, 4 per instruction, ideal 4.
  // Contiguous load: the same, 4 wavefronts, no conflict.
  shared_float4<<<1, 32>>>(out.ptr, 1);
  CHECK(last(Counter::SharedStWavefronts) == 8);
  CHECK(last(Counter::SharedStConflicts) == 0);
  CHECK(last(Counter::SharedLdWavefronts) == 4);
  CHECK(last(Counter::SharedLdConflicts) == 0);
  // Broadcast: each half-warp reads the same 4 words: 1 wavefront per half.
  shared_float4<<<1, 32>>>(out.ptr, 0);
  CHECK(last(Counter::SharedLdWavefronts) == 2);
  CHECK(last(Counter::SharedLdConflicts) == 0);
  // Stride 2: a half-warp touches words 8t..8t+3, t < 16: banks {0-3, 8-11, 16-19,
  // 24-27} each hold 4 distinct words: 4 wavefronts per half, ideal 64/32 = 2.
  shared_float4<<<1, 32>>>(out.ptr, 2);
  CHECK(last(Counter::SharedLdWavefronts) == 8);
  CHECK(last(Counter::SharedLdConflicts) == 4);
}
