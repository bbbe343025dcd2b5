// vector_add, map, zip and reduce_dim: other shapes than the defaults, and
// what their memory accesses cost.
#include "run_kernel.hpp"

using simt::Counter;

TEST_CASE("vector_add: n/32 requests per array, 4 sectors each") {
  // n = 2^20, block 256: every warp is full; its lanes read 32 consecutive
  // floats = 128 bytes = 4 sectors of a, then of b, and write 4 sectors of c.
  const KernelRun& r = run_defaults("vector_add");
  require_clean_pass(r);
  const std::uint64_t warps = (1u << 20) / 32;
  CHECK(r.total(Counter::GlobalLdRequests) == 2 * warps);
  CHECK(r.total(Counter::GlobalLdSectors) == 2 * 4 * warps);
  CHECK(r.total(Counter::GlobalStRequests) == warps);
  CHECK(r.total(Counter::GlobalStSectors) == 4 * warps);
  CHECK(r.total(Counter::GlobalLdBytes) == 2 * 4 * (1u << 20));  // every fetched byte is used
  CHECK(r.total(Counter::FAdd) == 1u << 20);
  // A size that ends mid-warp: the last warp has 8 active lanes, 1 sector each way.
  KernelRun tail = run_kernel("vector_add", {{"n", "1000"}, {"block", "128"}});
  require_clean_pass(tail);
  CHECK(tail.total(Counter::GlobalLdRequests) == 2 * 32);
  CHECK(tail.total(Counter::GlobalLdSectors) == 2 * (31 * 4 + 1));
}

TEST_CASE("map: every op, contiguous and permuted views, sizes not a multiple of the block") {
  for (const char* op : {"neg", "relu", "square"})
    for (const char* permute : {"0,1,2", "2,0,1", "1,2,0"}) {
      INFO(op << " permute " << permute);
      require_clean_pass(run_kernel("map", {{"shape", "5,37,19"}, {"permute", permute}, {"op", op}, {"block", "96"}}));
    }
  require_clean_pass(run_kernel("map", {{"shape", "1000"}, {"permute", "0"}}));
}

TEST_CASE("map: a transposed view makes every load touch 32 sectors") {
  // shape 64,128,128 viewed as permute(0,2,1): the view's last axis has stride
  // 128 floats = 512 bytes, so the 32 lanes of a warp read 32 different sectors;
  // the contiguous output store is 32 x 4 bytes = 4 sectors. 2^20 elements,
  // 2^15 full warps.
  const KernelRun& r = run_defaults("map");
  require_clean_pass(r);
  const std::uint64_t warps = (1u << 20) / 32;
  // Data load and store (shape/strides reads come on top: 3 dims x 2 arrays,
  // each a one-sector broadcast).
  CHECK(r.total(Counter::GlobalStRequests) == warps);
  CHECK(r.total(Counter::GlobalStSectors) == 4 * warps);
  CHECK(r.total(Counter::GlobalLdRequests) == warps * (1 + 3 + 3));
  CHECK(r.total(Counter::GlobalLdSectors) == warps * (32 + 3 + 3));
  // The same map over the contiguous view: the data load becomes 4 sectors.
  KernelRun c = run_kernel("map", {{"permute", "0,1,2"}});
  require_clean_pass(c);
  CHECK(c.total(Counter::GlobalLdSectors) == warps * (4 + 3 + 3));
}

TEST_CASE("zip: broadcasting in both directions, ranks differ, odd sizes") {
  for (const char* op : {"add", "sub", "mul", "max"}) {
    INFO(op);
    require_clean_pass(run_kernel("zip", {{"a", "3,1,7"}, {"b", "5,1"}, {"op", op}, {"block", "64"}}));
  }
  require_clean_pass(run_kernel("zip", {{"a", "1"}, {"b", "2,3,33"}}));
  require_clean_pass(run_kernel("zip", {{"a", "17,1"}, {"b", "1,45"}, {"op", "mul"}}));
  CHECK_THROWS_WITH(run_kernel("zip", {{"a", "3,4"}, {"b", "5,4"}}), doctest::Contains("do not broadcast"));
}

TEST_CASE("zip: broadcast inputs are re-requested, the DRAM estimate counts them once") {
  // out (64,64,256) = 2^20 elements, 2^15 warps; each warp loads 32 consecutive
  // floats of a and of b (4 sectors each) and stores 4 sectors.
  const KernelRun& r = run_defaults("zip");
  require_clean_pass(r);
  const std::uint64_t warps = (1u << 20) / 32;
  CHECK(r.total(Counter::GlobalStSectors) == 4 * warps);
  // Data: 2 loads x 4 sectors. Index metadata: out_shape 3 reads, a and b each
  // 3 shape reads + 3 stride reads; all broadcasts of one sector.
  CHECK(r.total(Counter::GlobalLdRequests) == warps * (2 + 3 + 6 + 4));
  CHECK(r.total(Counter::GlobalLdSectors) == warps * (8 + 3 + 6 + 4));
  // Compulsory reads: a and b are 16384 floats each (64 KiB) plus the tiny
  // shape/stride arrays; far below the 8 MiB of load sectors requested.
  CHECK(r.total(Counter::DramReadBytes) < 2 * 65536 + 4096);
  CHECK(r.total(Counter::DramWriteBytes) == 4u << 20);
}

TEST_CASE("reduce_dim: sum and max over each dimension, lengths not a power of two") {
  for (const char* op : {"sum", "max"})
    for (int dim = 0; dim < 3; ++dim) {
      INFO(op << " dim " << dim);
      require_clean_pass(run_kernel("reduce_dim", {{"shape", "7,300,5"}, {"dim", std::to_string(dim)}, {"op", op}, {"block", "64"}}));
    }
  require_clean_pass(run_kernel("reduce_dim", {{"shape", "3000"}, {"dim", "0"}, {"op", "max"}}));
}

TEST_CASE("reduce_dim: reducing the strided dimension costs 8x the sectors") {
  // 1024x1024, block 256: each block's 4 loop iterations are one warp load of
  // 32 floats. Reducing dim 1 (contiguous) they are neighbours: 4 sectors.
  // Reducing dim 0 they are 1024 floats apart: 32 sectors.
  const std::uint64_t data_requests = 1024 /*blocks*/ * 8 /*warps*/ * 4 /*iterations*/;
  KernelRun rows = run_kernel("reduce_dim", {{"dim", "1"}});
  KernelRun cols = run_kernel("reduce_dim", {{"dim", "0"}});
  require_clean_pass(rows);
  require_clean_pass(cols);
  const std::uint64_t meta_sectors = rows.total(Counter::GlobalLdSectors) - data_requests * 4;
  CHECK(cols.total(Counter::GlobalLdSectors) == meta_sectors + data_requests * 32);
  // The shared-memory tree is conflict-free: partial[tid] and partial[tid + s]
  // are consecutive words across a warp.
  CHECK(rows.total(Counter::SharedLdConflicts) == 0);
  CHECK(rows.total(Counter::SharedStConflicts) == 0);
}
