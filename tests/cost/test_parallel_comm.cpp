// ZeRO, tensor-parallel, MoE and DDP communication against the papers' volumes.
#include "cost/train/ddp.hpp"
#include "cost/train/moe_comm.hpp"
#include "cost/train/tp_comm.hpp"
#include "cost/train/zero_comm.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>

using namespace simt::cost;

namespace {
const LinkSpec& link(const char* name) { return Catalog::builtin().link(name); }

double zero_volume(int stage, int gpus, double params = 7.5e9) {
  ZeroCommInput in;
  in.params = params;
  in.stage = stage;
  in.gpus = gpus;
  return zero_comm(in, link("IB-HDR")).wire_bytes_per_gpu / (params * in.bytes_per_element);
}
}  // namespace

TEST_CASE("ZeRO volumes: stages 1-2 = DP = 2 Psi, stage 3 = 1.5x DP = 3 Psi (Rajbhandari et al. 2020, sec. 7)") {
  for (int n : {2, 8, 64}) {
    CAPTURE(n);
    CHECK(zero_volume(1, n) == doctest::Approx(zero_volume(0, n)));
    CHECK(zero_volume(2, n) == doctest::Approx(zero_volume(0, n)));
    CHECK(zero_volume(3, n) / zero_volume(0, n) == doctest::Approx(1.5));
  }
  // The paper's 2 Psi and 3 Psi are the many-GPU limits of 2(n-1)/n and 3(n-1)/n.
  CHECK(zero_volume(0, 1024) == doctest::Approx(2.0).epsilon(2e-3));
  CHECK(zero_volume(3, 1024) == doctest::Approx(3.0).epsilon(2e-3));
  CHECK(zero_volume(0, 2) == doctest::Approx(1.0));
  CHECK_THROWS_AS(zero_volume(4, 8), std::invalid_argument);
}

TEST_CASE("Megatron TP: 2 all-reduces of b*s*h forward and 2 backward per layer (Shoeybi et al. 2019)") {
  TpCommInput in;
  in.batch = 4;
  in.seq = 2048;
  in.hidden = 12288;
  in.tp = 8;
  CommPlan train = tp_comm(in, link("NVLink4"));
  const double S = 4.0 * 2048 * 12288 * 2;
  int allreduces = 0;
  for (const CommPhase& ph : train.phases) allreduces += ph.count;
  CHECK(allreduces == 4);
  CHECK(train.wire_bytes_per_gpu == doctest::Approx(4 * 2.0 * 7 / 8 * S));
  in.training = false;
  CHECK(tp_comm(in, link("NVLink4")).wire_bytes_per_gpu == doctest::Approx(train.wire_bytes_per_gpu / 2));
  // Sequence parallelism (Korthikanti et al. 2022, sec. 4.2.2): same volume, and
  // in the alpha-beta model the same time too.
  in.training = true;
  in.sequence_parallel = true;
  CommPlan sp = tp_comm(in, link("NVLink4"));
  CHECK(sp.wire_bytes_per_gpu == doctest::Approx(train.wire_bytes_per_gpu));
  CHECK(sp.time_s == doctest::Approx(train.time_s));
  in.tp = 1;
  CHECK_THROWS_AS(tp_comm(in, link("NVLink4")), std::invalid_argument);
}

TEST_CASE("MoE: dispatch + combine all-to-all of tokens*k*h, (ep-1)/ep leaves the GPU") {
  MoeCommInput in;
  in.tokens = 4096;
  in.hidden = 4096;
  in.top_k = 2;
  in.ep = 8;
  CommPlan p = moe_comm(in, link("NVLink4"));
  const double S = 4096.0 * 2 * 4096 * 2;
  CHECK(p.phases.size() == 4);
  CHECK(p.wire_bytes_per_gpu == doctest::Approx(4 * S * 7 / 8));
  in.training = false;
  in.capacity_factor = 1.25;
  CHECK(moe_comm(in, link("NVLink4")).wire_bytes_per_gpu == doctest::Approx(2 * 1.25 * S * 7 / 8));
  in.top_k = 0;
  CHECK_THROWS_AS(moe_comm(in, link("NVLink4")), std::invalid_argument);
}

TEST_CASE("DDP bucketing: overlap hides communication behind a long backward") {
  DdpInput in;
  in.params = 1.3e9;
  in.gpus = 8;
  in.backward_s = 10;  // far longer than all communication
  DdpResult slow = ddp_overlap(in, link("NVLink3"));
  CHECK(slow.buckets.size() == std::size_t(std::ceil(1.3e9 * 4 / (25.0 * 1024 * 1024))));
  // Only the last bucket's all-reduce (ready when backward ends) is exposed.
  double last = collective_time(Collective::all_reduce, slow.buckets.back().bytes, 8, link("NVLink3")).time_s;
  CHECK(slow.exposed_s == doctest::Approx(last));
  CHECK(slow.step_s < slow.no_overlap_s);

  in.backward_s = 1e-6;  // communication dominates: nearly all of it is exposed
  DdpResult fast = ddp_overlap(in, link("NVLink3"));
  CHECK(fast.exposed_s == doctest::Approx(fast.comm_total_s).epsilon(1e-3));
  // Bucketing pays one latency per bucket: more than one big all-reduce.
  CHECK(fast.comm_total_s > fast.single_allreduce_s);

  in.bucket_bytes = 0;
  CHECK_THROWS_AS(ddp_overlap(in, link("NVLink3")), std::invalid_argument);
  in.bucket_bytes = 1;
  CHECK_THROWS_WITH(ddp_overlap(in, link("NVLink3")), doctest::Contains("million buckets"));
}
