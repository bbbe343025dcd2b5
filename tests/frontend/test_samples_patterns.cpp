// What NVIDIA's introductory and concept samples needed of simtlab (docs/frontend.md,
// "NVIDIA's CUDA samples"), each as a small program of our own: device attributes
// CUDA 13 moved out of cudaDeviceProp, group shuffles of vectors, tiles of several
// warps, a shuffle from lanes the mask leaves out, and unwritten shared reads a
// program never uses.
#include "frontend_test_util.hpp"

#include <doctest/doctest.h>

using namespace simt::frontend_test;

namespace {
const std::string kCollectives = "simt__warp_collectives.sum";
const std::string kBarriers = "simt__warp_barriers.sum";
const std::string kSharedLd = "smsp__sass_inst_executed_op_shared_ld.sum";
const std::string kSharedSt = "smsp__sass_inst_executed_op_shared_st.sum";
}  // namespace

TEST_CASE("cudaDeviceGetAttribute: ClockRate, Integrated and ComputeMode, with CUDA's enum values") {
  Exec e = exec(kTests + "device_attributes.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out ==
        "ClockRate (13): cudaSuccess 1980000\n"  // the H200's 1980 MHz, in kHz
        "Integrated (18): cudaSuccess 0\n"
        "ComputeMode (20): cudaSuccess 0\n"
        "MultiProcessorCount (16): cudaSuccess 132\n"
        "modes 0 1 2 3\n"
        "device 7: cudaErrorInvalidDevice\n");
}

TEST_CASE("group shuffles of a uint4 and a 12-byte struct move 4 bytes per SHFL") {
  Exec e = exec(kTests + "cg_shfl_vector.cu");
  CHECK(e.run.status == 0);
  // Columns: shfl_xor(v, 1) x y z w, shfl_down(v, 2) x w, tile-of-8 shfl(triple, 0),
  // the even lanes' shfl_up(v, 1) x w (rank 0 keeps its own), the odd lanes' zeros.
  CHECK(e.run.out ==
        " 0: 1 101 201 301 2 302 0 0 0 0 300\n"
        " 1: 0 100 200 300 3 303 0 0 0 0 0\n"
        " 5: 4 104 204 304 7 307 0 0 0 0 0\n"
        "30: 31 131 231 331 30 330 24 -24 576 28 328\n"  // shfl_down past the warp's end: its own
        "31: 30 130 230 330 31 331 24 -24 576 0 0\n"
        "32: 33 133 233 333 34 334 32 -32 1024 32 332\n"
        "42: 43 143 243 343 44 344 40 -40 1600 40 340\n"
        "63: 62 162 262 362 63 363 56 -56 3136 0 0\n"
        "cudaSuccess\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0]["diagnostics"].empty());
  // Per warp: 4 + 4 (uint4), 3 (Triple), 1 (coalesced_threads) + 4 (uint4). Two warps.
  CHECK(metric(e.launches[0], kCollectives) == 2 * 16);
}

TEST_CASE("tiles of 64, 128 and 256 threads: ranks, meta-group ranks and cg::reduce through shared memory") {
  Exec e = exec(kTests + "cg_multi_warp_tile.cu");
  CHECK(e.run.status == 0);
  // Sums of thread indices over each tile: 64 tiles hold 0..63 (2016), 64..127 (6112) ...
  CHECK(e.run.out ==
        "tile 64 thread 0: rank 0 meta 0/4 sum 2016 size 64 float 0x1.2f9beap+2\n"
        "tile 64 thread 63: rank 63 meta 0/4 sum 2016 size 64 float 0x1.2f9beap+2\n"
        "tile 64 thread 64: rank 0 meta 1/4 sum 6112 size 64 float 0x1.60e63p-1\n"
        "tile 64 thread 200: rank 8 meta 3/4 sum 14304 size 64 float 0x1.25ebbap-2\n"
        "tile 64 thread 255: rank 63 meta 3/4 sum 14304 size 64 float 0x1.25ebbap-2\n"
        "tile 128 thread 0: rank 0 meta 0/2 sum 8128 size 128 float 0x1.5bb8bp+2\n"
        "tile 128 thread 63: rank 63 meta 0/2 sum 8128 size 128 float 0x1.5bb8bp+2\n"
        "tile 128 thread 64: rank 64 meta 0/2 sum 8128 size 128 float 0x1.5bb8bp+2\n"
        "tile 128 thread 200: rank 72 meta 1/2 sum 24512 size 128 float 0x1.61e4bp-1\n"
        "tile 128 thread 255: rank 127 meta 1/2 sum 24512 size 128 float 0x1.61e4bp-1\n"
        "tile 256 thread 0: rank 0 meta 0/1 sum 32640 size 256 float 0x1.87f546p+2\n"
        "tile 256 thread 63: rank 63 meta 0/1 sum 32640 size 256 float 0x1.87f546p+2\n"
        "tile 256 thread 64: rank 64 meta 0/1 sum 32640 size 256 float 0x1.87f546p+2\n"
        "tile 256 thread 200: rank 200 meta 0/1 sum 32640 size 256 float 0x1.87f546p+2\n"
        "tile 256 thread 255: rank 255 meta 0/1 sum 32640 size 256 float 0x1.87f546p+2\n"
        "cudaSuccess\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0]["diagnostics"].empty());
  // Six reductions (three tile sizes, int and float), 8 warps each: 5 shuffles a warp,
  // then the first warp of each tile shuffles log2(warps per tile) times: 4 tiles x 1,
  // 2 x 2, 1 x 3 per pair.
  CHECK(metric(e.launches[0], kCollectives) == 6 * 8 * 5 + 2 * (4 + 4 + 3));
  CHECK(metric(e.launches[0], kBarriers) == 6 * 2 * 8);  // two tile syncs per reduction
  // Stores: 8 warp totals and one result per tile; loads: the first warps' reads of
  // the totals and every warp's read of the result.
  CHECK(metric(e.launches[0], kSharedSt) == 2 * (3 * 8 + 4 + 2 + 1));
  CHECK(metric(e.launches[0], kSharedLd) == 2 * (3 * 8 + 4 + 2 + 1));
}

TEST_CASE("a shuffle from a lane the mask leaves out reads 0, as an inactive lane does on the H200") {
  Exec e = exec(kTests + "shfl_outside_mask.cu");
  CHECK(e.run.status == 0);
  // Lanes 0..7 shuffle down by 16, 8, 4, 2, 1 within a ballot of themselves: lanes
  // above 7 add 0, so lane 0 holds 1 + ... + 8 = 36 (was 4 x 36, each lane adding its
  // own value whenever the source lay outside the mask).
  CHECK(e.run.out == "36 35 33 30 26 21 15 8\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0]["diagnostics"].empty());
}

TEST_CASE("an unwritten shared read stops the block, unless SIMT_OPTIONS=uninitialized=0") {
  Exec stopped = exec(kTests + "uninitialized_shared_option.cu");
  CHECK(stopped.run.status != 0);
  CHECK(stopped.run.out.rfind("cudaErrorLaunchFailure", 0) == 0);
  CHECK(stopped.stderr_.find("uninitialised shared-memory read in kernel warp_totals") != std::string::npos);
  CHECK(stopped.stderr_.find("SIMT_OPTIONS=uninitialized=0") != std::string::npos);
  Exec ran = exec(kTests + "uninitialized_shared_option.cu", "", "SIMT_OPTIONS=uninitialized=0");
  CHECK(ran.run.status == 0);
  CHECK(ran.run.out == "cudaSuccess 10 30 60\n");  // the scan of 1, 2, 3 (x10): the unwritten slots unused
  REQUIRE(ran.launches.size() == 1);
  CHECK(ran.launches[0]["diagnostics"].empty());
}

TEST_CASE("a __shared__ array nothing writes is reported where it is read, though the optimizer removed it") {
  Exec stopped = exec(kTests + "shared_never_written.cu");
  CHECK(stopped.run.out == "filled cudaSuccess 63 0\nunwritten cudaErrorLaunchFailure\n");
  CHECK(stopped.stderr_.find("uninitialised shared-memory read in kernel reads_unwritten") != std::string::npos);
  CHECK(stopped.stderr_.find("shared_never_written.cu:12") != std::string::npos);
  CHECK(stopped.stderr_.find("'never_written' (declared at line 11), which nothing in the program writes") !=
        std::string::npos);
  CHECK(stopped.stderr_.find("'filled'") == std::string::npos);
  Exec ran = exec(kTests + "shared_never_written.cu", "", "SIMT_OPTIONS=uninitialized=0");
  CHECK(ran.run.out == "filled cudaSuccess 63 0\nunwritten cudaSuccess\n");
}
