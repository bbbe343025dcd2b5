// The NCCL collective model (cost/comm/nccl_model.hpp) against the 2xH200 all-reduce
// sweep it was fitted on (docs/validation/data/nccl_h200x2_allreduce.txt): the five
// sizes held out of the fit within 25%, the protocols where NCCL switches them, and
// the derived (uncalibrated) links labelled so.
#include "cost/comm/nccl_model.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace simt::cost;

namespace {

struct Point {
  double bytes, seconds;
};

std::vector<Point> measured_sweep() {
  std::ifstream in(std::string(SIMTLAB_SOURCE_DIR) + "/docs/validation/data/nccl_h200x2_allreduce.txt");
  REQUIRE(in);
  std::vector<Point> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string nccl, op, bytes_word, gpus_word, time_word;
    double bytes = 0, gpus = 0, us = 0;
    if (s >> nccl >> op >> bytes_word >> bytes >> gpus_word >> gpus >> time_word >> us && nccl == "NCCL" &&
        op == "all_reduce")
      out.push_back({bytes, us * 1e-6});
  }
  return out;
}

// Back to back, a call takes the longer of the device's time and the host's issue.
double per_call(double bytes, const LinkSpec& link) {
  const NcclTime t = nccl_time(Collective::all_reduce, bytes, {2, 1, &link, nullptr});
  return std::max(t.seconds, nccl_call_s(link));
}

}  // namespace

TEST_CASE("the 2xH200 all-reduce sweep: the five held-out sizes within 25%, all eleven within 25%") {
  const LinkSpec& nvlink = Catalog::builtin().link("NVLink4");
  const std::set<double> fitted = {1024, 16384, 262144, 4194304, 67108864, 1073741824};
  const std::vector<Point> sweep = measured_sweep();
  REQUIRE(sweep.size() == 11);
  int held_out = 0, held_out_within = 0;
  for (const Point& p : sweep) {
    const double ratio = per_call(p.bytes, nvlink) / p.seconds;
    INFO(p.bytes << " bytes: predicted / measured = " << ratio);
    CHECK(std::abs(ratio - 1) <= 0.25);
    if (!fitted.contains(p.bytes)) {
      ++held_out;
      held_out_within += std::abs(ratio - 1) <= 0.25;
    }
  }
  CHECK(held_out == 5);
  CHECK(held_out_within >= 4);
}

TEST_CASE("NCCL's protocols: LL for small messages, Simple for large ones") {
  const LinkSpec& nvlink = Catalog::builtin().link("NVLink4");
  CHECK(nccl_time(Collective::all_reduce, 4096, {2, 1, &nvlink, nullptr}).protocol == "LL");
  CHECK(nccl_time(Collective::all_reduce, 256.0 * 1024 * 1024, {2, 1, &nvlink, nullptr}).protocol == "Simple");
  CHECK(nccl_time(Collective::all_reduce, 4096, {2, 1, &nvlink, nullptr}).calibrated);
}

TEST_CASE("more ranks cost more latency; a ring across nodes runs at the network's pace and says it is uncalibrated") {
  const LinkSpec& nvlink = Catalog::builtin().link("NVLink4");
  const LinkSpec& ib = Catalog::builtin().link("IB-NDR");
  const double big = 1 << 30;
  const NcclTime two = nccl_time(Collective::all_reduce, 1024, {2, 1, &nvlink, nullptr});
  const NcclTime eight = nccl_time(Collective::all_reduce, 1024, {8, 1, &nvlink, nullptr});
  CHECK(eight.latency_s > two.latency_s);
  const NcclTime one_node = nccl_time(Collective::all_reduce, big, {16, 1, &nvlink, nullptr});
  const NcclTime two_nodes = nccl_time(Collective::all_reduce, big, {16, 2, &nvlink, &ib});
  CHECK(two_nodes.seconds > 3 * one_node.seconds);
  CHECK_FALSE(two_nodes.calibrated);
  CHECK(one_node.busbw == doctest::Approx(one_node.algbw * 2 * 15 / 16.0));
}

TEST_CASE("a peer copy: the measured NVLink 4 rate; other links derived and labelled") {
  const LinkSpec& nvlink = Catalog::builtin().link("NVLink4");
  const PeerCopyTime t = peer_copy_time(256.0 * 1024 * 1024, nvlink);
  CHECK(t.calibrated);
  CHECK(t.seconds == doctest::Approx(679.18e-6).epsilon(0.05));  // the shared PEER line
  CHECK_FALSE(peer_copy_time(1 << 20, Catalog::builtin().link("NVLink3")).calibrated);
}

TEST_CASE("impossible rings are refused") {
  const LinkSpec& nvlink = Catalog::builtin().link("NVLink4");
  CHECK_THROWS_AS(nccl_time(Collective::all_reduce, 1024, {6, 4, &nvlink, &nvlink}), std::invalid_argument);
  CHECK_THROWS_AS(nccl_time(Collective::all_reduce, -1, {2, 1, &nvlink, nullptr}), std::invalid_argument);
  CHECK(nccl_time(Collective::all_reduce, 1024, {1, 1, &nvlink, nullptr}).seconds == 0);
}
