// The kernel time model, term by term, on counters built to load one limit.
#include "cost/kernel/kernel_time.hpp"

#include "cost/kernel/kernel_rates.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

using namespace simt::cost;

namespace {

// Relative: doctest's default Approx also allows 1.2e-5 absolute (scale 1), which
// is microseconds here, and would pass a wrong time.
doctest::Approx approx(double v) { return doctest::Approx(v).scale(0); }

const DeviceSpec& h200() { return Catalog::builtin().device("H200"); }

// A full-occupancy grid of 256-thread blocks reading and writing n floats, coalesced.
KernelCounters streaming(double n) {
  KernelCounters c;
  c.kernel = "copy";
  c.threads_per_block = 256;
  c.blocks = n / 256;
  c.ld_requests = c.st_requests = n / 32;
  c.ld_sectors = c.st_sectors = n / 8;
  c.warp_inst = 2 * n / 32;
  c.thread_inst = 2 * n;
  c.dram_read_bytes = c.dram_write_bytes = 4 * n;
  return c;
}

// Global load sites as the simulator files them, and the launch's load totals they
// sum to (requests, sectors, first reads from DRAM).
void with_loads(KernelCounters& c, std::vector<GlobalSite> sites) {
  c.ld_requests = c.ld_sectors = c.dram_read_bytes = 0;
  for (const GlobalSite& s : sites) {
    c.ld_requests += s.requests;
    c.ld_sectors += s.sectors;
    c.dram_read_bytes += std::max(0.0, s.dram_read_bytes);
  }
  c.sites = std::move(sites);
}

// A load site in loop 1 of launch c: `per_warp` requests a warp of `sectors` sectors
// each, every sector a first touch (from DRAM).
GlobalSite loop_load(const KernelCounters& c, double per_warp, double sectors) {
  GlobalSite s{GlobalSite::Op::Load, c.warps() * per_warp, sectors * c.warps() * per_warp, 32};
  s.loop = 1;
  s.dram_read_bytes = 32 * s.sectors;
  return s;
}

// What a one-wave launch's load chain adds for DRAM's transfer, in clocks: the share
// of its DRAM reads in the rounds its warps keep in step (kInStepRounds).
double in_step_transfer_clk(const KernelCounters& c, const DeviceSpec& d) {
  const KernelRates r = kernel_rates(d);
  const double rounds = load_rounds_per_warp(c);
  return rounds > 1 ? std::min(1.0, kInStepRounds / rounds) * c.dram_read_bytes / r.dram_bytes.value * r.clock_hz : 0;
}

// Shared-memory traffic only: `requests` warp loads, `per_request` wavefronts each.
KernelCounters shared_only(double requests, double per_request) {
  KernelCounters c;
  c.kernel = "shared";
  c.threads_per_block = 1024;
  c.blocks = 132 * 2;
  c.shared_ld_inst = requests;
  c.shared_ld_wavefronts = requests * per_request;
  c.warp_inst = requests;
  c.thread_inst = 32 * requests;
  return c;
}

}  // namespace

TEST_CASE("the rates come from the catalog with their sources") {
  KernelRates r = kernel_rates(h200());
  CHECK(r.sms == 132);
  CHECK(r.clock_hz == approx(1.98e9));
  // 67 TFLOP/s = 132 SMs x lanes x 2 x 1.98 GHz -> 128 FP32 lanes (Hopper whitepaper: 128 per SM).
  CHECK(r.fp32_lanes.value == approx(128).epsilon(0.01));
  CHECK(r.fp64_lanes.value == approx(64).epsilon(0.02));
  CHECK(r.launch_overhead_s.in_catalog);
  CHECK(r.launch_overhead_s.source.find("calibrate_time_model.py") != std::string::npos);
  CHECK(r.dram_bytes.value == approx(4.8e12 * 0.911));
  // A device with no kernel_model entry falls back, and says so.
  KernelRates a = kernel_rates(Catalog::builtin().device("A100-80GB-SXM"));
  CHECK_FALSE(a.launch_overhead_s.in_catalog);
  CHECK(a.launch_overhead_s.source.find("not in this device's catalog entry") != std::string::npos);
  CHECK(a.fp32_lanes.value == approx(64).epsilon(0.01));  // GA100: 64 FP32 lanes per SM
}

TEST_CASE("a device without SM count or clock cannot be priced") {
  CHECK_THROWS_AS(kernel_time(Catalog::builtin().device("B200"), streaming(1 << 20)), std::invalid_argument);
}

TEST_CASE("invalid counters are refused") {
  KernelCounters c = streaming(1 << 20);
  c.ld_sectors = -1;
  CHECK_THROWS_WITH_AS(kernel_time(h200(), c), doctest::Contains("load sectors"), std::invalid_argument);
  KernelCounters empty;
  CHECK_THROWS_AS(kernel_time(h200(), empty), std::invalid_argument);
}

TEST_CASE("a large copy is bound by DRAM at the achievable bandwidth") {
  const double n = 1 << 26;  // 256 MiB each way
  KernelCounters c = streaming(n);
  c.threads_per_block = 1024;  // blocks of 1 K threads: dispatch keeps up
  c.blocks = n / 1024;
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.bound == "dram");
  const double dram = 8 * n / (4.8e12 * 0.911);
  CHECK(t.term("dram").seconds == approx(dram));
  // Plus one global round trip: the stream fills before anything arrives.
  CHECK(t.fill_s == approx(0.384e-6));
  CHECK(t.predicted_s == approx(dram + 1.66e-6 + 0.384e-6));
  CHECK(t.sentence.find("bound by DRAM traffic") == 0);
}

TEST_CASE("a kernel streaming page-locked host memory is bound by the host link") {
  const double n = 1 << 24;  // 64 MiB read from host memory, written to the device
  KernelCounters c = streaming(n);
  c.threads_per_block = 1024;
  c.blocks = n / 1024;
  c.dram_read_bytes = 0;
  c.sysmem_read_bytes = 4 * n;
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.bound == "sysmem");
  // PCIe 5 x16 (63 GB/s) x the pinned-copy efficiency measured on the H200 (0.875),
  // after one round trip over the link.
  CHECK(t.term("sysmem").seconds == approx(2.5e-6 + 4 * n / (63e9 * 0.875)));
  CHECK(t.term("sysmem").seconds > 20 * t.term("dram").seconds);
  CHECK(t.sentence.find("host-link traffic") != std::string::npos);
  // Reads and writes cross in opposite directions: the busier one binds.
  c.sysmem_write_bytes = 2 * n;
  CHECK(kernel_time(h200(), c).term("sysmem").seconds == approx(t.term("sysmem").seconds));
}

TEST_CASE("a copy in many small blocks waits for block dispatch") {
  // 256 threads a block move 2 KB, less than the SM's DRAM share while one block is
  // dispatched (157 cycles): the grid of blocks binds, as tests/cuda/short_kernel_probe.cu
  // measured (copy_one: 12.7 us for 16,896 blocks, against 7.9 us of DRAM traffic).
  const double n = 1 << 26;
  KernelTime t = kernel_time(h200(), streaming(n));
  CHECK(t.bound == "blocks");
  const double later = std::ceil(n / 256 / 132) - 1;
  CHECK(t.term("blocks").seconds == approx(later * 157 / 1.98e9));
  CHECK(t.term("blocks").seconds > t.term("dram").seconds);
  CHECK(t.sentence.find("bound by thread-block dispatch") == 0);
  // One block per SM costs nothing beyond the launch overhead.
  KernelCounters one = streaming(132 * 256);
  CHECK(kernel_time(h200(), one).term("blocks").seconds == 0);
}

TEST_CASE("32-way bank conflicts cost 32 times the wavefronts and bind") {
  KernelTime clean = kernel_time(h200(), shared_only(1 << 20, 1));
  KernelTime conflicted = kernel_time(h200(), shared_only(1 << 20, 32));
  CHECK(conflicted.term("shared").seconds == approx(32 * clean.term("shared").seconds));
  CHECK(conflicted.bound == "shared");
  CHECK(conflicted.sentence.find("bank conflicts") != std::string::npos);
  CHECK(clean.term("shared").detail.find("conflict-free") != std::string::npos);
  // 2^20 requests x 32 wavefronts over 132 SMs at one per clock.
  CHECK(conflicted.term("shared").seconds == approx(32.0 * (1 << 20) / 132 / 1.98e9).epsilon(0.01));
  CHECK(conflicted.predicted_s > 10 * clean.predicted_s);
}

TEST_CASE("scattered loads touch a line per lane; coalesced ones one line") {
  CHECK(lines_per_request({GlobalSite::Op::Load, 10, 40, 32}) == 1);    // 4 sectors: one 128-B line
  CHECK(lines_per_request({GlobalSite::Op::Load, 10, 80, 32}) == 2);    // stride 2
  CHECK(lines_per_request({GlobalSite::Op::Load, 10, 320, 32}) == 32);  // a column: 32 lines
  CHECK(lines_per_request({GlobalSite::Op::Load, 10, 10, 32}) == 1);    // broadcast
  // A sampled launch's scaled counts (llm.c attention_forward's value kernel, 21 of 192
  // blocks counted): sectors per request 4.9e-9 below the lanes is still a line a lane.
  CHECK(lines_per_request({GlobalSite::Op::Store, 102792631, 3281893083, 31.927318637266907}) ==
        approx(31.9273).epsilon(1e-4));
  KernelCounters coalesced = streaming(1 << 24), strided = streaming(1 << 24);
  strided.ld_sectors = strided.ld_requests * 32;
  strided.dram_read_bytes = strided.ld_sectors * 32;  // each sector fetched once
  KernelTime a = kernel_time(h200(), coalesced), b = kernel_time(h200(), strided);
  CHECK(b.term("l1").seconds == approx(a.term("l1").seconds * 33 / 2));  // (32 + 1) vs (1 + 1) lines
  CHECK(b.term("l1_l2").seconds > 10 * a.term("l1_l2").seconds);
  CHECK(b.predicted_s > 2 * a.predicted_s);
  CHECK(b.term("l1").detail.find("uncoalesced") != std::string::npos);
}

TEST_CASE("uncoalesced stores are bound by the lines each SM sends to L2") {
  KernelCounters c = streaming(1 << 24);
  c.st_sectors = c.st_requests * 32;  // a column write: every lane its own sector and line
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.bound == "l1_l2");
  CHECK(t.sentence.find("32 per request: uncoalesced") != std::string::npos);
}

TEST_CASE("a same-address atomic storm serialises; spread atomics do not") {
  KernelCounters storm;
  storm.kernel = "histogram of one bin";
  storm.threads_per_block = 256;
  storm.blocks = 1024;
  storm.atom_requests = storm.blocks * 8;
  storm.atom_sectors = storm.atom_requests;  // every lane the same word
  storm.sites = {{GlobalSite::Op::Atomic, storm.atom_requests, storm.atom_sectors, 32}};
  KernelTime t = kernel_time(h200(), storm);
  CHECK(t.bound == "atomics");
  CHECK(t.term("atomics").amount == storm.blocks * 256);
  CHECK(t.term("atomics").seconds == approx(storm.blocks * 256 / (0.288 * 1.98e9)));
  KernelCounters spread = storm;
  spread.atom_sectors = spread.atom_requests * 32;
  spread.sites[0].sectors = spread.atom_sectors;
  CHECK(kernel_time(h200(), spread).term("atomics").seconds == 0);
}

TEST_CASE("one block more than a full wave doubles the latency term") {
  KernelCounters c = shared_only(0, 1);
  c.threads_per_block = 32;
  c.shared_bytes_per_block = 200 * 1024;  // one resident block per SM
  c.ld_requests = c.ld_sectors = 1;
  auto with_blocks = [&](double blocks) {
    c.blocks = blocks;
    c.shared_st_inst = c.shared_st_wavefronts = blocks * 40;  // 40 dependent accesses per warp
    return kernel_time(h200(), c);
  };
  KernelTime one = with_blocks(132), two = with_blocks(133);
  CHECK(one.occupancy.resident_blocks == 1);
  CHECK(one.occupancy.limiter == "shared memory");
  CHECK(one.occupancy.waves == 1);
  CHECK(two.occupancy.waves == 2);
  CHECK(one.bound == "latency");
  CHECK(two.term("latency").seconds == approx(2 * one.term("latency").seconds));
  // One wave: a global round trip plus 40 shared accesses of 29 cycles (measured).
  CHECK(one.term("latency").seconds == approx(0.384e-6 + 40 * 29 / 1.98e9));
}

TEST_CASE("132 blocks vs 133: the busiest SM does twice the work") {
  KernelCounters c = shared_only(132 * 1000, 4);
  c.blocks = 132;
  KernelTime even = kernel_time(h200(), c);
  c.blocks = 133;
  KernelTime tail = kernel_time(h200(), c);
  CHECK(even.occupancy.busiest_sm_blocks == 1);
  CHECK(tail.occupancy.busiest_sm_blocks == 2);
  CHECK(tail.term("shared").seconds == approx(even.term("shared").seconds * 2 * 132 / 133));
}

TEST_CASE("shared memory per block limits residency") {
  KernelCounters c = shared_only(1000, 1);
  c.threads_per_block = 128;
  c.shared_bytes_per_block = 100 * 1024;  // 228 KiB / (100 + 1) KiB -> 2 blocks
  Occupancy o = kernel_time(h200(), c).occupancy;
  CHECK(o.resident_blocks == 2);
  CHECK(o.limiter == "shared memory");
}

TEST_CASE("FP32 work binds when nothing else does, at 128 lanes per SM") {
  KernelCounters c = shared_only(0, 1);
  c.blocks = 132 * 16;
  c.threads_per_block = 256;
  c.fp32_inst = 1e10;
  c.flops = 2e10;
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.bound == "fp32");
  // The FP32 term of an all-FFMA kernel is the datasheet's compute roof.
  CHECK(t.term("fp32").seconds == approx(2e10 / 67e12).epsilon(0.01));
}

TEST_CASE("half-precision work is timed at the device's non-tensor fp16 rate, not FP32's") {
  KernelCounters c = shared_only(0, 1);
  c.blocks = 132 * 16;
  c.threads_per_block = 256;
  c.fp16_inst = 1e10;  // HFMA2: 4 FLOPs each
  KernelTime h = kernel_time(h200(), c);
  CHECK(h.bound == "fp16");
  // Hopper: 133.8 TFLOP/s of packed FMAs = the FP32 instruction rate.
  CHECK(h.term("fp16").seconds == doctest::Approx(4e10 / 133.8e12).epsilon(0.01));
  CHECK(h.term("fp32").seconds == 0);
  // GA100: 78 TFLOP/s, four times its FP32 peak in FLOPs, twice in instructions.
  c.blocks = 108 * 16;
  KernelTime a = kernel_time(Catalog::builtin().device("A100-80GB-SXM"), c);
  CHECK(a.term("fp16").seconds == doctest::Approx(4e10 / 78e12).epsilon(0.01));
  // No published non-tensor fp16 peak: the FP32 instruction rate, said so.
  DeviceSpec unpublished = h200();
  unpublished.peak.erase("fp16_cuda_cores");
  const KernelRates b = kernel_rates(unpublished);
  CHECK(b.fp16_lanes.value == b.fp32_lanes.value);
  CHECK(b.fp16_lanes.source.find("no published") != std::string::npos);
}

TEST_CASE("an empty launch costs the launch overhead; every level is reported") {
  KernelCounters c = shared_only(0, 1);
  c.blocks = 1;
  c.threads_per_block = 32;
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.predicted_s == approx(1.66e-6));
  REQUIRE(t.levels.size() == 3);
  CHECK(t.levels[0].name == "l1_shared");
  CHECK(t.levels[2].name == "dram");
  CHECK(explain(t).find("launch overhead") != std::string::npos);
}

TEST_CASE("integer work binds through the instruction estimate; without it issue is a lower bound") {
  // The strided-tensor pattern: a coalesced copy whose index arithmetic (a division
  // and a remainder per dimension) issues 200 warp instructions per element's warp.
  KernelCounters c = streaming(1 << 24);
  c.threads_per_block = 1024;
  c.blocks = double(1 << 24) / 1024;
  const KernelTime counted = kernel_time(h200(), c);
  CHECK(counted.bound == "dram");
  c.sass_warp_inst = 200 * (double(1 << 24) / 32);
  c.sass_thread_inst = 32 * c.sass_warp_inst;
  const KernelTime all = kernel_time(h200(), c);
  CHECK(all.bound == "issue");
  // 100 M warp instructions over 132 SMs at 4 per clock: 0.19 M clocks per SM.
  const double busiest = c.sass_warp_inst * all.occupancy.busiest_share;
  CHECK(all.term("issue").seconds == approx(busiest / 4 / kernel_rates(h200()).clock_hz));
  CHECK(all.term("issue").seconds > 2 * counted.term("issue").seconds);
  CHECK(all.term("issue").detail.find("every instruction") != std::string::npos);
  CHECK(counted.term("issue").detail.find("lower bound") != std::string::npos);
  c.sass_warp_inst = -1;
  CHECK_THROWS_AS(kernel_time(h200(), c), std::invalid_argument);
}

TEST_CASE("the latency chain adds to issue: a wave's warps wait together at its barriers") {
  // One full wave of 256-thread blocks (8 per SM), 20 barriers per warp, and
  // integer work that keeps the schedulers busy longer than the wave's chain.
  KernelCounters c = shared_only(0, 1);
  c.threads_per_block = 256;
  c.blocks = 132 * 8;
  c.warp_barriers = c.warps() * 20;
  c.sass_warp_inst = c.warps() * 200;
  c.sass_thread_inst = 32 * c.sass_warp_inst;
  const KernelTime t = kernel_time(h200(), c);
  const double clock = kernel_rates(h200()).clock_hz;
  // The barriers, and the SM's 8th block starting 7 dispatches after its first.
  const double latency = (20 * 28.7 + 7 / kernel_rates(h200()).blocks.value) / clock, issue = 64 * 200 / 4 / clock;
  REQUIRE(t.term("latency").seconds == approx(latency));
  REQUIRE(t.term("issue").seconds == approx(issue));
  // The sum, not the larger of the two: 1.66 + 0.84 + 1.62 us.
  CHECK(t.predicted_s == approx(1.66e-6 + latency + issue));
  CHECK(t.bound == "issue");
  CHECK(t.fill_s == approx(latency));
  CHECK(t.fill_what == t.term("latency").what);
  CHECK(t.sentence.find("not overlapped") != std::string::npos);
  CHECK(fill_suffix(t).empty());  // in the sentence already
  // A throughput unit that takes longer than both hides them: DRAM binds alone.
  c.dram_read_bytes = 1e8;
  const KernelTime d = kernel_time(h200(), c);
  CHECK(d.bound == "dram");
  CHECK(d.fill_s == 0);  // no loads: no round trip to wait for
  CHECK(d.predicted_s == approx(1.66e-6 + d.term("dram").seconds));
}

namespace {

// The coalesced matmul's loop: per warp, k iterations of a broadcast load of A
// (one sector) and a coalesced row of B (one line), then one store.
KernelCounters matmul_loop(double blocks, double k) {
  KernelCounters c;
  c.kernel = "matmul_coalesced";
  c.threads_per_block = 256;
  c.blocks = blocks;
  const double warps = c.warps();
  c.sites = {{GlobalSite::Op::Load, warps * k, warps * k, 32},
             {GlobalSite::Op::Load, warps * k, 4 * warps * k, 32},
             {GlobalSite::Op::Store, warps, 4 * warps, 32}};
  c.ld_requests = 2 * warps * k;
  c.ld_sectors = 5 * warps * k;
  c.st_requests = warps;
  c.st_sectors = 4 * warps;
  c.sass_warp_inst = warps * 7 * k;
  c.sass_thread_inst = 32 * c.sass_warp_inst;
  c.dram_read_bytes = c.dram_write_bytes = 4 * 256.0 * 256;
  return c;
}

// The H200 with an L2 load round in its kernel_model (micro_load_loop's key).
DeviceSpec h200_with_l2_latency(double clk) {
  DeviceSpec d = h200();
  d.kernel_model["l2_load_round_clk"] = Sourced{clk, "test", "assumed for the test"};
  return d;
}

}  // namespace

TEST_CASE("a loop of dependent loads: every round after the first waits an L2 hit") {
  const KernelCounters c = matmul_loop(256, 256);
  // The most one site issues per warp (both sites run once per iteration).
  CHECK(load_rounds_per_warp(c) == approx(256));
  const KernelTime t = kernel_time(h200_with_l2_latency(200), c);
  const double clock = kernel_rates(h200()).clock_hz;
  // Almost every round hits in L2 (B is re-read by every block); the first touches
  // (0.3% of the sectors) wait for DRAM, a global round trip of 0.384 us.
  const double miss = load_miss_fraction(c);
  CHECK(miss == approx(4 * 256.0 * 256 / (32 * c.ld_sectors)));
  const double transfer = in_step_transfer_clk(c, h200());  // one wave of 256 blocks
  CHECK(transfer > 0);
  CHECK(t.term("load_chain").seconds ==
        approx((255 * (miss * 0.384e-6 * clock + (1 - miss) * 200) + transfer) / clock));
  CHECK(t.bound == "load_chain");
  // The first round trip and the load chain, after the launch: no issue added
  // (other warps issue while this one waits).
  CHECK(t.predicted_s == approx(1.66e-6 + t.term("latency").seconds + t.term("load_chain").seconds));
  CHECK(t.predicted_s > 1.66e-6 + t.term("l1").seconds + t.fill_s + 20e-6);
  // Twice the waves, twice the chain.
  const KernelTime two = kernel_time(h200_with_l2_latency(200), matmul_loop(132 * 8 + 1, 256));
  CHECK(two.occupancy.waves == 2);
  CHECK(two.term("load_chain").amount == 2 * t.term("load_chain").amount);  // round trips
  CHECK(two.term("load_chain").seconds > 1.9 * t.term("load_chain").seconds);
}

TEST_CASE("without a measured L2-hit latency the load chain is not charged, and says so") {
  DeviceSpec d = h200();
  d.kernel_model.erase("l2_load_round_clk");
  KernelCounters c = matmul_loop(256, 256);
  c.dram_read_bytes = 0;  // every load an L2 hit
  const KernelTime t = kernel_time(d, c);
  CHECK(t.term("load_chain").seconds == 0);
  CHECK(t.term("load_chain").detail.find("not charged") != std::string::npos);
  CHECK(t.term("load_chain").source.find("micro_load_loop") != std::string::npos);
  // One load per warp (a streaming kernel): no later rounds, whatever the latency.
  CHECK(kernel_time(h200_with_l2_latency(200), streaming(1 << 24)).term("load_chain").seconds == 0);
}

TEST_CASE("a streaming loop's rounds wait for DRAM: a global round trip each, measured or not") {
  // reduce_dim's row loop: 16 loads per thread of data read once (every sector a
  // first touch), an add chain on the result, then a tree of barriers.
  DeviceSpec d = h200();
  d.kernel_model.erase("l2_load_round_clk");
  KernelCounters c;
  c.kernel = "row_sum";
  c.threads_per_block = 256;
  c.blocks = 132 * 8 * 4;  // four waves
  c.sites = {{GlobalSite::Op::Load, c.warps() * 16, 4 * c.warps() * 16, 32}};
  c.ld_requests = c.warps() * 16;
  c.ld_sectors = 4 * c.ld_requests;
  c.dram_read_bytes = 32 * c.ld_sectors;
  c.warp_barriers = c.warps() * 9;
  c.sass_warp_inst = c.warps() * 150;
  c.sass_thread_inst = 32 * c.sass_warp_inst;
  const KernelTime t = kernel_time(d, c);
  CHECK(load_miss_fraction(c) == approx(1));
  CHECK(t.term("load_chain").seconds == approx(4 * 15 * 0.384e-6));
  // The chain adds to the larger of issue and the warp's own load rounds; of the
  // smaller only what the SM's other blocks cannot hide (the warps meet at barriers:
  // an eighth, with 8 blocks an SM).
  CHECK(t.bound == "load_chain");
  CHECK(t.predicted_s == approx(1.66e-6 + t.term("latency").seconds + t.term("load_chain").seconds +
                                t.term("issue").seconds / 8));
  CHECK(t.fill_what == t.term("latency").what);
  // Without the loop (one load per thread) the chain adds to issue instead.
  c.sites[0].requests = c.ld_requests = c.warps();
  c.sites[0].sectors = c.ld_sectors = 4 * c.ld_requests;
  c.dram_read_bytes = 32 * c.ld_sectors;
  const KernelTime once = kernel_time(d, c);
  CHECK(once.term("load_chain").seconds == 0);
  CHECK(once.bound == "issue");
  CHECK(once.predicted_s == approx(1.66e-6 + once.term("latency").seconds + once.term("issue").seconds));
  CHECK(once.predicted_s < t.predicted_s);
}

TEST_CASE("a fully unrolled loop's loads are one round: straight-line sites are in flight together") {
  KernelCounters c = matmul_loop(256, 256);
  for (GlobalSite& s : c.sites) s.straight_line = true;  // the same requests, every copy outside loops
  CHECK(load_rounds_per_warp(c) == approx(1));
  const KernelTime t = kernel_time(h200_with_l2_latency(200), c);
  CHECK(t.term("load_chain").seconds == 0);
  CHECK(t.bound != "load_chain");
  // One site still in a loop keeps its rounds: the longest chain decides.
  c.sites[1].straight_line = false;
  CHECK(load_rounds_per_warp(c) == approx(256));
}

TEST_CASE("load chain: loops add, one loop's sites overlap, branch-free loops share a DRAM round") {
  // A warp per row reading its row twice, as layernorm_welford and softmax_warp_per_row
  // do: 24 requests per warp in each of two loops, the first from DRAM, the second
  // re-reading what the first left in L2.
  const KernelRates r = kernel_rates(h200());
  const double dram_clk = 0.384e-6 * r.clock_hz, l2_round = 210, l2_hit = 286;
  KernelCounters c;
  c.kernel = "two_loops";
  c.threads_per_block = 256;
  c.blocks = 128;  // one wave, one block per SM
  const double w = c.warps(), per_warp = 24;
  GlobalSite first = loop_load(c, per_warp, 4);
  GlobalSite second = first;
  second.loop = 2;
  second.dram_read_bytes = 0;
  c.sites = {first, second};
  c.ld_requests = 2 * w * per_warp;
  c.ld_sectors = 2 * first.sectors;
  c.dram_read_bytes = 32 * first.sectors;
  // Both loops branch: a whole round trip per iteration, DRAM then L2-hit latency.
  CHECK(load_rounds_per_warp(c) == approx(48));
  const double first_round = 0.5 * dram_clk + 0.5 * l2_round;  // the latency term's, at the launch's miss share
  KernelTime t = kernel_time(h200(), c);
  CHECK(t.term("load_chain").seconds ==
        approx((per_warp * dram_clk + per_warp * l2_hit - first_round + in_step_transfer_clk(c, h200())) /
               r.clock_hz));
  // Branch-free loops: nvcc issues four iterations' loads at once.
  c.sites[0].batched = c.sites[1].batched = true;
  t = kernel_time(h200(), c);
  CHECK(t.term("load_chain").seconds == approx((per_warp * dram_clk / kBatchedLoadIterations + per_warp * l2_round -
                                                 first_round + in_step_transfer_clk(c, h200())) /
                                                r.clock_hz));
  // Both sites in one loop: they are in flight together, the busier one counts.
  c.sites[1].loop = 1;
  CHECK(load_rounds_per_warp(c) == approx(24));
  CHECK(kernel_time(h200(), c).term("load_chain").detail.find("in 1 loop") != std::string::npos);
}

TEST_CASE("a branch-free loop of many load sites has fewer iterations' loads in flight") {
  // layernorm_backward_naive's column walk: four loads a step (x and dy from DRAM, a
  // row's mean and rstd re-read from L2), unrolled four deep; ptxas issues 9 of the 16
  // before the first use, so each four steps wait two DRAM rounds, not one.
  const KernelRates r = kernel_rates(h200());
  const double dram_clk = 0.384e-6 * r.clock_hz, l2_round = 210;
  KernelCounters c;
  c.kernel = "column_walk";
  c.threads_per_block = 256;
  c.blocks = 3;
  const double per_warp = 1024;
  GlobalSite streamed = loop_load(c, per_warp, 4);
  streamed.batched = true;
  GlobalSite reread = streamed;
  reread.dram_read_bytes = 0;
  with_loads(c, {streamed});
  const double one_site = kernel_time(h200(), c).term("load_chain").seconds;
  // One site: four iterations share a round; the first round is the latency term's.
  CHECK(one_site == approx((per_warp * dram_clk / kBatchedLoadIterations - dram_clk + in_step_transfer_clk(c, h200())) /
                            r.clock_hz));
  with_loads(c, {streamed, streamed, reread, reread});
  const double first_round = 0.5 * dram_clk + 0.5 * l2_round;  // at the launch's miss share
  const KernelTime four = kernel_time(h200(), c);
  CHECK(four.term("load_chain").seconds ==
        approx((per_warp * dram_clk / 2 - first_round + in_step_transfer_clk(c, h200())) / r.clock_hz));
  CHECK(four.term("load_chain").detail.find("loads of 2 iterations in flight") != std::string::npos);
  // Two sites still fit one group: four iterations a round (twice the transfer).
  with_loads(c, {streamed, streamed});
  CHECK(kernel_time(h200(), c).term("load_chain").seconds ==
        approx((per_warp * dram_clk / kBatchedLoadIterations - dram_clk + in_step_transfer_clk(c, h200())) /
               r.clock_hz));
}

TEST_CASE("a loop nvcc unrolls 16 deep has 12 loads out a round; a wave in step waits for DRAM's transfer") {
  // layernorm_two_pass_mean at 256 rows: a warp a row of 768 floats, 24 coalesced loads
  // a warp, all first touches. Its SASS issues 16 loads before the first use, then 8.
  const KernelRates r = kernel_rates(h200());
  const double dram_clk = 0.384e-6 * r.clock_hz;
  KernelCounters c;
  c.kernel = "row_sum";
  c.threads_per_block = 256;
  c.blocks = 32;  // one wave
  const double w = c.warps();
  GlobalSite row = loop_load(c, 24, 4);
  row.batched = true;
  with_loads(c, {row});
  const double stream_clk = c.dram_read_bytes / r.dram_bytes.value * r.clock_hz;
  // Four deep: six rounds; the first is the latency term's.
  const KernelTime shallow = kernel_time(h200(), c);
  CHECK(shallow.term("load_chain").seconds == approx((5 * dram_clk + stream_clk) / r.clock_hz));
  CHECK(shallow.term("load_chain").formula.find("clk of DRAM transfer") != std::string::npos);
  // Sixteen deep: two rounds (16 iterations, then 8).
  row.deep = true;
  with_loads(c, {row});
  const KernelTime deep = kernel_time(h200(), c);
  CHECK(deep.term("load_chain").seconds == approx((dram_clk + stream_clk) / r.clock_hz));
  CHECK(deep.term("load_chain").detail.find("loads of 12 iterations in flight") != std::string::npos);
  // 26 iterations: the two left over one at a time, then two rounds of 12: four.
  row.requests = w * 26;
  row.sectors = 4 * row.requests;
  row.dram_read_bytes = 32 * row.sectors;
  with_loads(c, {row});
  const double stream26 = c.dram_read_bytes / r.dram_bytes.value * r.clock_hz;
  CHECK(kernel_time(h200(), c).term("load_chain").seconds == approx((3 * dram_clk + stream26) / r.clock_hz));
  // Two sites of one loop: 6 iterations a round (12 loads): 24 iterations are 4.
  GlobalSite second = row;
  row.requests = second.requests = w * 24;
  row.sectors = second.sectors = 4 * row.requests;
  row.dram_read_bytes = second.dram_read_bytes = 32 * row.sectors;
  with_loads(c, {row, second});
  const double stream_two = c.dram_read_bytes / r.dram_bytes.value * r.clock_hz;
  CHECK(kernel_time(h200(), c).term("load_chain").seconds == approx((3 * dram_clk + stream_two) / r.clock_hz));
  // A shared load in the loop takes its share too (gemv_int8: LDG and LDS a step).
  c.shared_sites = {{c.warps() * 24, false, 1, true}};
  with_loads(c, {row});
  CHECK(kernel_time(h200(), c).term("load_chain").seconds == approx((3 * dram_clk + stream_clk) / r.clock_hz));
  c.shared_sites.clear();
  // Many waves: the warps no longer wait in step, and the transfer is the dram term's.
  with_loads(c, {row});
  c.blocks = 32 * 132;
  row.requests = c.warps() * 24;
  row.sectors = 4 * row.requests;
  row.dram_read_bytes = 32 * row.sectors;
  with_loads(c, {row});
  const KernelTime many = kernel_time(h200(), c);
  REQUIRE(many.occupancy.waves > 1);
  CHECK(many.term("load_chain").seconds == approx(many.occupancy.waves * dram_clk / r.clock_hz));
  CHECK(many.term("load_chain").formula.find("DRAM transfer") == std::string::npos);
}

TEST_CASE("where L1's clocks are counted, the l1 term takes them, and a request's clocks lengthen its round") {
  // A thread-per-row walk, rows 4,000 bytes apart: 32 lines a request at four places,
  // 16 clocks (sim/count/l1_rule.hpp), where a line a clock would say 32.
  KernelCounters c = streaming(1 << 24);
  c.ld_sectors = c.ld_requests * 32;
  const KernelTime lines = kernel_time(h200(), c);
  c.l1_data_cycles = 16 * c.ld_requests + c.st_requests;
  const KernelTime counted = kernel_time(h200(), c);
  CHECK(counted.term("l1").seconds == approx(lines.term("l1").seconds * 17 / 33));  // (16 + 1) vs (32 + 1)
  CHECK(counted.term("l1").unit == "clocks");
  // Loads 16 clocks a request, stores 1: 8.5 a request.
  CHECK(counted.term("l1").detail.find("8.5 clocks each") != std::string::npos);
  // In a loop that branches, each round waits for its request's last line: 15 clocks
  // more than a one-line request's L1 hit.
  const KernelRates r = kernel_rates(h200());
  KernelCounters walk;
  walk.kernel = "row_walk";
  walk.threads_per_block = 256;
  walk.blocks = 132 * 8;  // eight waves of 8 warps an SM: no in-step transfer
  const double per_warp = 1024;
  GlobalSite row = loop_load(walk, per_warp, 32);
  row.reread_sectors = row.sectors;  // every sector read before: L1 hits
  row.dram_read_bytes = 0;
  with_loads(walk, {row});
  const double one_line = kernel_time(h200(), walk).term("load_chain").seconds;
  walk.sites[0].l1_cycles = 16 * row.requests;
  const KernelTime served = kernel_time(h200(), walk);
  CHECK(served.term("load_chain").seconds ==
        approx(one_line + served.occupancy.waves * per_warp * 15 / r.clock_hz));
}

TEST_CASE("in a loop that branches, each iteration also waits for the chain after its loads") {
  // A warp per KV head walking 512 cached tokens (decode): a K row a token, in a loop
  // whose online softmax branches; after each row its dot product's shuffle tree and
  // expf, 400 clocks a token by the compiler front end's count.
  const KernelRates r = kernel_rates(h200());
  const double dram_clk = 0.384e-6 * r.clock_hz;
  KernelCounters c;
  c.kernel = "decode";
  c.threads_per_block = 128;
  c.blocks = 8;
  const double w = c.warps(), tokens = 512;
  GlobalSite k_rows = loop_load(c, tokens, 4);
  with_loads(c, {k_rows});
  const double without = kernel_time(h200(), c).term("load_chain").seconds;
  CHECK(without == approx((tokens * dram_clk - dram_clk + in_step_transfer_clk(c, h200())) / r.clock_hz));
  c.load_use_chain_clk = w * tokens * 400;
  const TimeTerm with = kernel_time(h200(), c).term("load_chain");
  CHECK(with.seconds == approx(without + tokens * 400 / r.clock_hz));
  CHECK(with.formula.find("clk after the loads") != std::string::npos);
  CHECK(with.detail.find("in 1 loop") != std::string::npos);
}

TEST_CASE("a warp's re-reads of its own sectors wait for L1, not L2") {
  // One thread summing a small array into a running scan (moe_scan_counts): each load
  // waits for the last, and 7 of each 8 find the sector of the load before in L1.
  const KernelRates r = kernel_rates(h200());
  REQUIRE(r.l1_hit_latency_clk.value > 0);
  const double l1 = r.l1_hit_latency_clk.value, l2_hit = r.l2_hit_latency_clk.value;
  KernelCounters c;
  c.kernel = "scan";
  c.threads_per_block = 1;
  c.blocks = 1;
  GlobalSite counts{GlobalSite::Op::Load, 64, 64, 1};
  counts.loop = 1;
  counts.dram_read_bytes = 0;
  with_loads(c, {counts});
  const double first_round = r.l2_load_round_clk.value;  // the latency term's, no DRAM reads
  CHECK(kernel_time(h200(), c).term("load_chain").seconds == approx((64 * l2_hit - first_round) / r.clock_hz));
  c.sites[0].reread_sectors = 56;
  const TimeTerm rereads = kernel_time(h200(), c).term("load_chain");
  CHECK(rereads.seconds == approx((64 * (7 * l1 + l2_hit) / 8 - first_round) / r.clock_hz));
  CHECK(rereads.source.find("L1 hit") != std::string::npos);
  // A loop whose loads go out several iterations at a time keeps its L2 round.
  c.sites[0].batched = true;
  CHECK(kernel_time(h200(), c).term("load_chain").seconds ==
        approx((64 * r.l2_load_round_clk.value - first_round) / r.clock_hz));
}

TEST_CASE("in a loop that branches, a block's copies of one load site wait one round together") {
  // A tile copy unrolled twice (two float4 loads of one source line in one block)
  // inside a k loop with a branch and barriers: 64 k steps, 128 requests a warp, 64
  // rounds.
  const KernelRates r = kernel_rates(h200());
  const double dram_clk = 0.384e-6 * r.clock_hz;
  KernelCounters c;
  c.kernel = "tile_copy";
  c.threads_per_block = 256;
  c.blocks = 4;
  const double w = c.warps();
  GlobalSite tile = loop_load(c, 128, 16);
  with_loads(c, {tile});
  const double transfer = in_step_transfer_clk(c, h200());  // 128 rounds
  CHECK(kernel_time(h200(), c).term("load_chain").seconds ==
        approx((128 * dram_clk - dram_clk + transfer) / r.clock_hz));
  c.sites[0].copies = 2;
  // Warps that never meet at a barrier keep a round per copy (decode attention).
  CHECK(kernel_time(h200(), c).term("load_chain").seconds ==
        approx((128 * dram_clk - dram_clk + transfer) / r.clock_hz));
  c.warp_barriers = 2 * 64 * w;
  const TimeTerm copied = kernel_time(h200(), c).term("load_chain");
  CHECK(copied.seconds == approx((64 * dram_clk - dram_clk + in_step_transfer_clk(c, h200())) / r.clock_hz));
  CHECK(copied.detail.find("64 load rounds per warp") != std::string::npos);
  // A branch-free loop already issues several iterations' loads at a time; its copies
  // are those iterations (batched_iterations), not counted twice.
  c.sites[0].batched = true;
  const double batched_copies = kernel_time(h200(), c).term("load_chain").seconds;
  c.sites[0].copies = 1;
  CHECK(kernel_time(h200(), c).term("load_chain").seconds == approx(batched_copies));
}

TEST_CASE("in a loop that branches, each basic block's loads wait in turn") {
  // matmul_wmma's tile copy: two load sites of one loop, each in a block of its own
  // behind a branch; on the H200 each load's store waits before the next block issues.
  KernelCounters c;
  c.kernel = "tile_copy";
  c.threads_per_block = 128;
  c.blocks = 132;
  const double w = c.warps(), per_warp = 32;
  GlobalSite a{GlobalSite::Op::Load, w * per_warp, w * per_warp, 32};
  a.loop = 1;
  a.block = 3;
  a.dram_read_bytes = 0;
  GlobalSite b = a;
  b.block = 5;
  c.sites = {a, b};
  c.ld_requests = 2 * w * per_warp;
  c.ld_sectors = 2 * w * per_warp;
  CHECK(load_rounds_per_warp(c) == approx(2 * per_warp));
  const double in_turn = kernel_time(h200(), c).term("load_chain").seconds;
  // One block: in flight together, the busier site counts.
  c.sites[1].block = 3;
  CHECK(load_rounds_per_warp(c) == approx(per_warp));
  CHECK(kernel_time(h200(), c).term("load_chain").seconds < 0.6 * in_turn);
  // Blocks not known (ncu's counters): as one block.
  c.sites[0].block = c.sites[1].block = 0;
  CHECK(load_rounds_per_warp(c) == approx(per_warp));
  // A branch-free loop is unrolled and its loads batched whatever the blocks.
  c.sites[0].block = 3, c.sites[1].block = 5;
  c.sites[0].batched = c.sites[1].batched = true;
  CHECK(load_rounds_per_warp(c) == approx(per_warp));
}

TEST_CASE("a lone block meeting at barriers waits for its load rounds and issues in turn") {
  // One block per SM that loads a tile, meets at a barrier and computes: its warps all
  // wait for the same rounds, so issue and the rounds add; with blocks beside it on
  // the SM, they issue meanwhile.
  KernelCounters c = matmul_loop(132, 256);
  c.sass_warp_inst = c.warps() * 7 * 256 * 4;
  c.sass_thread_inst = 32 * c.sass_warp_inst;
  const DeviceSpec d = h200_with_l2_latency(354);
  const KernelTime free_running = kernel_time(d, c);
  const double loads = free_running.term("load_chain").seconds, issue = free_running.term("issue").seconds;
  REQUIRE(loads > 0);
  REQUIRE(issue > 0);
  c.warp_barriers = c.warps() * 2 * 256;
  const KernelTime lone = kernel_time(d, c);
  const double latency = lone.term("latency").seconds;
  CHECK(lone.predicted_s == approx(1.66e-6 + latency + loads + issue));
  // 8 blocks an SM (one wave): the smaller of the two is hidden but an 8th.
  c.blocks = 132 * 8;
  const KernelTime shared_sm = kernel_time(d, c);
  const double l8 = shared_sm.term("load_chain").seconds, i8 = shared_sm.term("issue").seconds;
  CHECK(shared_sm.predicted_s ==
        approx(1.66e-6 + shared_sm.term("latency").seconds + std::max(l8, i8) + std::min(l8, i8) / 8));
}

TEST_CASE("shared accesses of a branch-free loop overlap in the latency chain") {
  KernelCounters c = shared_only(132 * 2 * 32 * 64, 1);  // 64 shared loads per warp
  c.shared_sites = {{c.shared_ld_inst, false, 1, false}};
  const double chained = kernel_time(h200(), c).term("latency").seconds;
  CHECK(dependent_shared_per_warp(c) == approx(64));
  c.shared_sites[0].batched = true;
  CHECK(dependent_shared_per_warp(c) == approx(64 / kBatchedLoadIterations));
  CHECK(kernel_time(h200(), c).term("latency").seconds < chained);
  // Without sites every access is dependent, as before.
  c.shared_sites.clear();
  CHECK(kernel_time(h200(), c).term("latency").seconds == approx(chained));
}

TEST_CASE("the first wave's blocks start one dispatch apart: the last one's chain ends that much later") {
  KernelCounters c = shared_only(0, 1);
  c.threads_per_block = 256;
  const double clock = kernel_rates(h200()).clock_hz, dispatch = 1 / kernel_rates(h200()).blocks.value;
  auto latency = [&](double blocks) {
    c.blocks = blocks;
    c.warp_barriers = c.warps() * 20;
    return kernel_time(h200(), c).term("latency").seconds;
  };
  const double one_per_sm = latency(132);
  CHECK(one_per_sm == approx(20 * 28.7 / clock));
  // 8 resident blocks per SM (2,048 threads): 7 later starts on the busiest SM.
  CHECK(latency(132 * 8) == approx(one_per_sm + 7 * dispatch / clock));
  // A second wave waits its chain again, but its blocks were dispatched during the first.
  CHECK(latency(132 * 16) == approx(2 * one_per_sm + 7 * dispatch / clock));
}

TEST_CASE("a loop-carried chain adds its excess over the batched shared reads") {
  KernelCounters c = shared_only(132 * 2 * 32 * 64, 1);  // 64 shared loads per warp, one wave
  c.shared_sites = {{c.shared_ld_inst, false, 1, true}};  // in a branch-free loop: 16 in the chain
  const double clock = kernel_rates(h200()).clock_hz;
  const double reads = kernel_time(h200(), c).term("latency").seconds;
  CHECK(batched_shared_per_warp(c) == approx(64 / kBatchedLoadIterations));
  // A chain shorter than the reads' 16 x 29 clocks adds nothing: it is the same path.
  c.carried_chain_clk = c.warps() * 400;
  CHECK(kernel_time(h200(), c).term("latency").seconds == approx(reads));
  // A longer one (64 dependent FFMAs of 4.5 clocks, 8 times) adds what it exceeds them by.
  c.carried_chain_clk = c.warps() * 64 * 4.5 * 8;
  CHECK(kernel_time(h200(), c).term("latency").seconds ==
        approx(reads + (64 * 4.5 * 8 - 16 * 29.0) / clock));
  CHECK(kernel_time(h200(), c).term("latency").formula.find("loop-carried") != std::string::npos);
}
