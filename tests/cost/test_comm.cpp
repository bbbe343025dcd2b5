// Collective times: nccl-tests' bus-bandwidth factors, alpha-beta limits, and a
// hand computation.
#include "cost/comm/comm.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace simt::cost;

namespace {
const LinkSpec& nvlink4() { return Catalog::builtin().link("NVLink4"); }
const Collective kAll[] = {Collective::broadcast,  Collective::reduce,     Collective::all_reduce,
                           Collective::reduce_scatter, Collective::all_gather, Collective::all_to_all};
}  // namespace

TEST_CASE("busbw factors are nccl-tests' (doc/PERFORMANCE.md, 'Summary')") {
  // https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md:
  // AllReduce 2(n-1)/n; ReduceScatter, AllGather, AlltoAll (n-1)/n; Broadcast, Reduce 1.
  CHECK(bus_factor(Collective::all_reduce, 8) == doctest::Approx(1.75));
  CHECK(bus_factor(Collective::reduce_scatter, 8) == doctest::Approx(0.875));
  CHECK(bus_factor(Collective::all_gather, 4) == doctest::Approx(0.75));
  CHECK(bus_factor(Collective::all_to_all, 2) == doctest::Approx(0.5));
  CHECK(bus_factor(Collective::broadcast, 64) == 1.0);
  CHECK(bus_factor(Collective::reduce, 64) == 1.0);
}

TEST_CASE("for large messages busbw approaches the link bandwidth, for every ring collective") {
  // This is the point of busbw (PERFORMANCE.md): rank-count independent, comparable
  // to the hardware peak. It checks each time formula against its bus factor.
  for (Collective op : kAll)
    for (int n : {2, 3, 8, 64}) {
      CAPTURE(to_string(op));
      CAPTURE(n);
      CommResult r = collective_time(op, 1e13, n, nvlink4());
      CHECK(r.busbw == doctest::Approx(nvlink4().bandwidth).epsilon(1e-3));
      CHECK(r.algbw == doctest::Approx(r.bytes / r.time_s));
    }
}

TEST_CASE("hand computation: 1 GiB ring all-reduce on 8 GPUs over NVLink4") {
  // alpha 3.4 us (NCCL tuning.cc NVLink ring/Simple), B = 450 GB/s per direction
  // (H100 datasheet 900 GB/s bidirectional): 14 x 3.4 us + 1.75 x 2^30 / 450e9.
  CommResult r = collective_time(Collective::all_reduce, std::pow(2.0, 30), 8, nvlink4());
  CHECK(r.steps == 14);
  CHECK(r.latency_s == doctest::Approx(47.6e-6));
  CHECK(r.time_s == doctest::Approx(47.6e-6 + 1.75 * std::pow(2.0, 30) / 450e9));
}

TEST_CASE("small messages are latency-bound; tree beats ring there and loses at scale") {
  const LinkSpec& ib = Catalog::builtin().link("IB-NDR");
  CommResult tiny = collective_time(Collective::all_reduce, 8, 64, ib);
  CHECK(tiny.latency_s > 100 * tiny.transfer_s);
  CHECK(tiny.time_s == doctest::Approx(2 * 63 * ib.latency_s).epsilon(1e-3));
  CommResult tree_tiny = collective_time(Collective::all_reduce, 8, 64, ib, CommAlgo::tree);
  CHECK(tree_tiny.steps == 12);  // 2 * log2(64)
  CHECK(tree_tiny.time_s < tiny.time_s / 5);
  CommResult ring_big = collective_time(Collective::all_reduce, 1e10, 64, ib);
  CommResult tree_big = collective_time(Collective::all_reduce, 1e10, 64, ib, CommAlgo::tree);
  CHECK(tree_big.time_s > ring_big.time_s);
}

TEST_CASE("bad collective input is rejected with a reason") {
  CHECK_THROWS_WITH_AS(collective_time(Collective::all_reduce, 0, 8, nvlink4()), doctest::Contains("bytes must be > 0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(collective_time(Collective::all_reduce, -1, 8, nvlink4()), doctest::Contains("bytes must be > 0"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(collective_time(Collective::all_gather, 1e6, 1, nvlink4()), doctest::Contains("at least 2 GPUs"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(collective_time(Collective::all_gather, 1e6, 8, nvlink4(), CommAlgo::tree),
                       doctest::Contains("runs all-gather as a ring"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(collective_time(Collective::all_reduce, 1e6, 2147483647, nvlink4()),
                       doctest::Contains("more than"), std::invalid_argument);
  CHECK(parse_collective("allreduce") == Collective::all_reduce);
  CHECK(parse_collective("All_Gather") == Collective::all_gather);
  CHECK_THROWS_WITH(parse_collective("alltoal"), doctest::Contains("did you mean 'all-to-all'"));
}
