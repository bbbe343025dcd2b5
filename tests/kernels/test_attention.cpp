// The attention family (kernels/attention_common.cuh): every version against the
// double reference at odd shapes, and the counter facts the headers claim, derived
// by hand. Rows of Q, K, V and O are d floats (256 or 512 bytes), so every row and
// every tile of rows starts on a 32-byte sector boundary.
#include "run_kernel.hpp"

using simt::Counter;

namespace {
const char* const kForwards[] = {"attention_naive", "attention_flash", "attention_flash_wmma"};
const char* const kAll[] = {"attention_naive", "attention_flash", "attention_flash_wmma", "attention_flash_backward",
                            "attention_naive_backward"};

std::uint64_t sum_over_launches(const KernelRun& r, Counter c) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < r.launches.size(); ++i) total += r.total(c, i);
  return total;
}

// Keys of K (and of V) that attention_flash loads for one head: each 32-query tile
// loads the 16-key tiles up to its last key (all N without the mask).
std::uint64_t flash_keys_loaded(int n, bool causal) {
  std::uint64_t keys = 0;
  for (int q0 = 0; q0 < n; q0 += 32) {
    const int key_end = causal ? std::min(n, q0 + 32) : n;
    keys += std::min(n, (key_end + 15) / 16 * 16);
  }
  return keys;
}
}  // namespace

TEST_CASE("attention versions: odd shapes, d 64 and 128, with and without the causal mask") {
  for (const char* name : kAll) {
    INFO(name);
    for (const char* causal : {"0", "1"}) {
      INFO("causal " << causal);
      for (const char* dim : {"64", "128"}) {
        INFO("dim " << dim);
        require_clean_pass(
            run_kernel(name, {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"dim", dim}, {"causal", causal}}));
      }
      require_clean_pass(run_kernel(name, {{"heads", "1"}, {"seq", "1"}, {"causal", causal}}));
      require_clean_pass(run_kernel(name, {{"heads", "2"}, {"seq", "33"}, {"dim", "128"}, {"causal", causal}}));
    }
  }
}

TEST_CASE("attention forwards, causal: query 0 sees key 0 only, so O's row 0 is V's row 0 exactly") {
  for (const char* name : kForwards) {
    INFO(name);
    const KernelRun r = run_kernel(name, {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"causal", "1"}});
    require_clean_pass(r);
    const std::vector<float> v = simt::kernels::test_values(6 * 77 * 64, 3);  // attention::inputs' V
    const std::vector<float>& o = r.outputs.at("o").data;
    for (int h = 0; h < 6; ++h)
      for (int c = 0; c < 64; ++c) CHECK(o[std::size_t(h) * 77 * 64 + c] == v[std::size_t(h) * 77 * 64 + c]);
  }
}

TEST_CASE("attention_naive writes S to global memory and reads it back: N x N through DRAM four times") {
  const KernelRun& r = run_defaults("attention_naive");  // B 1, H 4, N 256, d 64
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 3);
  constexpr std::uint64_t kHeads = 4, kN = 256, kD = 64, kS = kHeads * kN * kN * 4 / 32;  // S in sectors
  // 1. S = Q K^T: S written once; Q and K read once per 16-wide tile of the other.
  CHECK(r.total(Counter::GlobalStSectors, 0) == kS);
  CHECK(r.total(Counter::GlobalLdSectors, 0) == 2 * (kN / 16) * kHeads * kN * kD * 4 / 32);
  // 2. softmax in place: three passes read S, one writes P over it.
  CHECK(r.total(Counter::GlobalLdSectors, 1) == 3 * kS);
  CHECK(r.total(Counter::GlobalStSectors, 1) == kS);
  // 3. O = P V: P read once per 16-column tile of O.
  CHECK(r.total(Counter::GlobalStSectors, 2) == kHeads * kN * kD * 4 / 32);
  CHECK(r.total(Counter::GlobalLdSectors, 2) == (kD / 16) * kS + (kN / 16) * kHeads * kN * kD * 4 / 32);
  // DRAM (compulsory, per launch): Q, K, V and O once, and S written, read, rewritten, read.
  CHECK(sum_over_launches(r, Counter::DramReadBytes) + sum_over_launches(r, Counter::DramWriteBytes) ==
        kHeads * (4 * kN * kD * 4 + 4 * kN * kN * 4));
}

TEST_CASE("attention_flash reads Q once and K and V once per query tile; DRAM sees Q, K, V, O and L once") {
  const KernelRun& r = run_defaults("attention_flash");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 1);
  constexpr std::uint64_t kHeads = 4, kN = 256, kD = 64, kRow = kD * 4 / 32;  // sectors per row
  constexpr std::uint64_t kQueryTiles = kN / 32;
  CHECK(r.total(Counter::GlobalLdSectors) == kHeads * (kN * kRow + kQueryTiles * 2 * kN * kRow));
  // O, plus L: a pair of rows' logsumexps per store, 8 aligned bytes, one sector.
  CHECK(r.total(Counter::GlobalStSectors) == kHeads * kN * kRow + kHeads * kN / 2);
  CHECK(r.total(Counter::DramReadBytes) == 3 * kHeads * kN * kD * 4);
  CHECK(r.total(Counter::DramWriteBytes) == kHeads * kN * kD * 4 + kHeads * kN * 4);
  // The HBM ratio naive / flash is (N d + N^2) / (N d + N / 4): 4.98 at N 256, d 64.
  const KernelRun& naive = run_defaults("attention_naive");
  const double ratio = double(sum_over_launches(naive, Counter::DramReadBytes) +
                              sum_over_launches(naive, Counter::DramWriteBytes)) /
                       double(r.total(Counter::DramReadBytes) + r.total(Counter::DramWriteBytes));
  CHECK(ratio == doctest::Approx(double(kN * kD + kN * kN) / double(kN * kD + kN / 4)));
  // No barrier but the K/V tile's two per tile: 8 warps x 2 x (N / 16 tiles) per block.
  CHECK(r.total(Counter::WarpBarriers) == kHeads * kQueryTiles * 8 * 2 * (kN / 16));
}

TEST_CASE("attention_flash at an odd shape: K and V loaded up to the last query's tile only under the mask") {
  for (const bool causal : {false, true}) {
    INFO("causal " << causal);
    const KernelRun r =
        run_kernel("attention_flash", {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"causal", causal ? "1" : "0"}});
    require_clean_pass(r);
    constexpr std::uint64_t kHeads = 6, kN = 77, kRow = 64 * 4 / 32;
    CHECK(r.total(Counter::GlobalLdSectors) == kHeads * kRow * (kN + 2 * flash_keys_loaded(kN, causal)));
  }
  CHECK(flash_keys_loaded(77, false) == 3 * 77);
  CHECK(flash_keys_loaded(77, true) == 32 + 64 + 77);  // the tiles above the diagonal are skipped
}

TEST_CASE("attention_flash_wmma: the products on the tensor cores, fp16 loads half the sectors") {
  const KernelRun& r = run_defaults("attention_flash_wmma");
  require_clean_pass(r);
  constexpr std::uint64_t kHeads = 4, kN = 256, kD = 64, kRow = kD * 2 / 32;  // fp16 rows
  // Two products of 2 N^2 d per head; each mma_sync is 2 x 16^3 x 2 FLOPs and two HMMA.
  CHECK(r.total(Counter::Tensor16Flops) == kHeads * 2 * 2 * kN * kN * kD);
  CHECK(r.total(Counter::TensorInst) == 2 * r.total(Counter::Tensor16Flops) / (2 * 16 * 16 * 16));
  // Q once, K and V once per 64-query tile.
  CHECK(r.total(Counter::GlobalLdSectors) == kHeads * (kN * kRow + (kN / 64) * 2 * kN * kRow));
  // The FP32 pipe keeps the softmax only: under a tenth of attention_flash's FLOPs.
  CHECK(10 * r.launches[0].totals.flops() < run_defaults("attention_flash").launches[0].totals.flops());
}

TEST_CASE("attention_flash_backward: forward, D, dK/dV, dQ; S and dP recomputed in the dQ pass") {
  const KernelRun& r = run_defaults("attention_flash_backward");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 4);  // the forward, then the three of the backward
  constexpr std::uint64_t kHeads = 4, kN = 256, kD = 64, kPairs = kHeads * kN * kN;
  // dK/dV does 4 d-long FMA chains per (query, key) pair (S, dP, dV, dK), dQ 3 (S, dP,
  // dQ); both compute the same expf per pair, so their FFMA counts differ by d per pair.
  const std::uint64_t dkdv = r.total(Counter::FFma, 2), dq = r.total(Counter::FFma, 3);
  CHECK(dkdv - dq == kPairs * kD);
  CHECK(dq >= 3 * kPairs * kD);
  CHECK(dq - 3 * kPairs * kD < kPairs * 8);  // what expf's sequence adds, a few FFMA per pair
  // No N x N anywhere: every launch of the backward reads and writes O(N d) per head.
  for (std::size_t i = 1; i < 4; ++i)
    CHECK(r.total(Counter::DramReadBytes, i) + r.total(Counter::DramWriteBytes, i) <= kHeads * 8 * kN * kD * 4);
  // Deterministic: no atomics in the gradients.
  CHECK(sum_over_launches(r, Counter::GlobalAtomRequests) + sum_over_launches(r, Counter::GlobalRedRequests) == 0);
}

TEST_CASE("attention_flash_backward, causal: the diagonal tiles keep every shared read a broadcast") {
  const KernelRun r = run_kernel("attention_flash_backward", {{"batch", "2"}, {"heads", "3"}, {"seq", "77"}, {"causal", "1"}});
  require_clean_pass(r);
  for (std::size_t i = 0; i < r.launches.size(); ++i) {
    INFO("launch " << i);
    CHECK(r.total(Counter::SharedLdConflicts, i) == 0);
  }
}

TEST_CASE("attention_naive_backward: 4 products and 7 N x N passes, against the flash backward's 7 products and none") {
  const KernelRun& r = run_defaults("attention_naive_backward");
  require_clean_pass(r);
  REQUIRE(r.launches.size() == 8);  // attention_naive's 3, then dV, dP, dS, dQ, dK
  constexpr std::uint64_t kHeads = 4, kN = 256, kD = 64;
  // The products: N x N x d FFMAs each (N is a multiple of the 16-wide tiles).
  for (std::size_t i : {3, 4, 6, 7}) {
    INFO("launch " << i);
    CHECK(r.total(Counter::FFma, i) == kHeads * kN * kN * kD);
  }
  // DRAM: P read for dV, dP written, P and dP read and dS written, dS read for dQ
  // and for dK: 7 N^2 floats; dO twice, V, K, Q once, dV, dQ, dK written: 8 N d.
  std::uint64_t bytes = 0;
  for (std::size_t i = 3; i < 8; ++i) bytes += r.total(Counter::DramReadBytes, i) + r.total(Counter::DramWriteBytes, i);
  CHECK(bytes == kHeads * 4 * (7 * kN * kN + 8 * kN * kD));
  // Against the flash backward's three launches: the same gradients in a fraction of the bytes.
  const KernelRun& flash = run_defaults("attention_flash_backward");
  std::uint64_t flash_bytes = 0;
  for (std::size_t i = 1; i < 4; ++i)
    flash_bytes += flash.total(Counter::DramReadBytes, i) + flash.total(Counter::DramWriteBytes, i);
  CHECK(2 * flash_bytes < bytes);  // 2.75x at N 256: the N d terms still weigh at this N
}
