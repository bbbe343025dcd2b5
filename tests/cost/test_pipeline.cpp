// Pipeline bubbles against the GPipe and Megatron-LM formulas, and the simulated
// schedules against those formulas.
#include "cost/train/pipeline.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

using namespace simt::cost;

namespace {
PipelineResult run(Schedule s, int p, int m, int v = 1) {
  PipelineInput in;
  in.schedule = s;
  in.stages = p;
  in.microbatches = m;
  in.virtual_stages = v;
  return pipeline(in);
}
}  // namespace

TEST_CASE("GPipe bubble: (p-1)/(m+p-1) of total (Huang et al. 2019), (p-1)/m of ideal (Narayanan et al. 2021)") {
  PipelineResult r = run(Schedule::gpipe, 4, 8);
  CHECK(r.bubble_of_total == doctest::Approx(3.0 / 11));
  CHECK(r.bubble_of_ideal == doctest::Approx(3.0 / 8));
  // GPipe paper: the bubble is negligible when M >= 4K.
  CHECK(run(Schedule::gpipe, 4, 16).bubble_of_total < 0.16);
  // 1F1B: same bubble, fewer activations in flight.
  PipelineResult f = run(Schedule::one_f_one_b, 4, 8);
  CHECK(f.bubble_of_total == doctest::Approx(r.bubble_of_total));
  CHECK(r.peak_inflight_microbatches == 8);  // GPipe keeps all m
  CHECK(f.peak_inflight_microbatches == 4);  // 1F1B keeps at most p
}

TEST_CASE("interleaving divides the bubble by v: (p-1)/(v m) (Narayanan et al. 2021, sec. 2.2)") {
  PipelineResult plain = run(Schedule::one_f_one_b, 4, 8);
  PipelineResult inter = run(Schedule::interleaved, 4, 8, 2);
  CHECK(inter.bubble_of_ideal == doctest::Approx(3.0 / 16));
  CHECK(inter.bubble_s == doctest::Approx(plain.bubble_s / 2));
}

TEST_CASE("the simulated schedules take exactly the time the formulas say") {
  for (int p : {1, 2, 3, 4, 8})
    for (int m : {1, 2, 4, 8, 16}) {
      CAPTURE(p);
      CAPTURE(m);
      for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b}) {
        PipelineResult r = run(s, p, m);
        CHECK(r.simulated_total_s == doctest::Approx(r.total_s));
        CHECK(r.ops.size() == std::size_t(2 * p * m));
      }
      if (m % p == 0)
        for (int v : {2, 3, 4}) {
          CAPTURE(v);
          PipelineResult r = run(Schedule::interleaved, p, m, v);
          CHECK(r.simulated_total_s == doctest::Approx(r.total_s));
        }
    }
}

TEST_CASE("timeline: one row per stage, idle cells where the bubble is") {
  std::string t = pipeline_timeline(run(Schedule::gpipe, 3, 2));
  std::istringstream in(t);
  std::string row0, row1, row2;
  std::getline(in, row0);
  std::getline(in, row1);
  std::getline(in, row2);
  CHECK(row0.rfind("stage 0 |F0 F1 ", 0) == 0);
  CHECK(row2.rfind("stage 2 |.. .. F0 F1 B0 B0 B1 B1", 0) == 0);
  CHECK(pipeline_timeline(run(Schedule::gpipe, 8, 64), 80).find("not drawn") != std::string::npos);
}

TEST_CASE("huge pipelines keep the formula and skip the simulation") {
  PipelineResult r = run(Schedule::one_f_one_b, 100000, 100000);
  CHECK(r.ops.empty());
  CHECK(r.bubble_of_total == doctest::Approx(99999.0 / 199999));
  CHECK(pipeline_timeline(r).find("too large") != std::string::npos);
}

TEST_CASE("pipeline input errors") {
  CHECK_THROWS_WITH_AS(run(Schedule::gpipe, 0, 4), doctest::Contains("stages must be >= 1"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(run(Schedule::gpipe, 4, 0), doctest::Contains("microbatches must be >= 1"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run(Schedule::gpipe, 4, 8, 2), doctest::Contains("needs --schedule interleaved"),
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(run(Schedule::interleaved, 4, 6, 2), doctest::Contains("multiple of stages"),
                       std::invalid_argument);
  CHECK(parse_schedule("1F1B") == Schedule::one_f_one_b);
  CHECK_THROWS_WITH(parse_schedule("gpip"), doctest::Contains("did you mean 'gpipe'"));
}

TEST_CASE("point-to-point bytes: each microbatch crosses the v p - 1 chunk boundaries twice") {
  PipelineInput in;
  in.schedule = Schedule::gpipe;
  in.stages = 4;
  in.microbatches = 8;
  in.activation_bytes = 1000;
  CHECK(pipeline(in).wire_bytes_per_step == 2.0 * 3 * 8 * 1000);
  in.schedule = Schedule::one_f_one_b;  // the schedule moves the same bytes, in another order
  CHECK(pipeline(in).wire_bytes_per_step == 2.0 * 3 * 8 * 1000);
  in.schedule = Schedule::interleaved;
  in.virtual_stages = 2;  // twice the chunks, 7 boundaries instead of 3
  CHECK(pipeline(in).wire_bytes_per_step == 2.0 * 7 * 8 * 1000);
  in.activation_bytes = -1;
  CHECK_THROWS_AS(pipeline(in), std::invalid_argument);
}
