// Pipeline-parallel schedules: bubble fraction by formula, and an event-level
// simulation of the schedule that draws the timeline and checks the formula.
//
// With p stages, m microbatches, forward time tf and backward time tb per
// microbatch per stage (whole model slice):
//   GPipe (Huang et al. 2019) and 1F1B (PipeDream-Flush, Narayanan et al. 2021):
//     bubble = (p-1)(tf+tb);  ideal = m(tf+tb)
//   interleaved 1F1B with v model chunks per stage (Narayanan et al. 2021, §2.2):
//     bubble = (p-1)(tf+tb)/v
// The fraction is quoted two ways, and the convention is a switch:
//   of_total: bubble / (ideal + bubble) = (p-1)/(m+p-1)      [GPipe paper]
//   of_ideal: bubble / ideal           = (p-1)/m            [Megatron-LM paper]
// 1F1B has the same bubble as GPipe; it wins on activation memory (at most p
// microbatches in flight on stage 0 instead of m).
// Point-to-point traffic: each microbatch crosses each of the v p - 1 boundaries
// between model chunks twice (activations forward, their gradients backward), a
// tensor of A bytes each time: 2 (v p - 1) m A bytes a step over all links, the
// same for every schedule (interleaving multiplies the boundaries by v).
#pragma once
#include <string>
#include <vector>

namespace simt::cost {

enum class Schedule { gpipe, one_f_one_b, interleaved };
enum class BubbleConvention { of_total, of_ideal };

Schedule parse_schedule(const std::string& name);  // "gpipe", "1f1b", "interleaved"
std::string to_string(Schedule s);
BubbleConvention parse_bubble_convention(const std::string& name);  // "total", "ideal"

struct PipelineInput {
  int stages = 1;
  int microbatches = 1;
  int virtual_stages = 1;  // v: model chunks per stage; >1 only for interleaved
  Schedule schedule = Schedule::one_f_one_b;
  double forward_s = 1;    // per microbatch per stage (whole stage, all chunks)
  double backward_s = 2;   // conventional 2x forward
  double activation_bytes = 0;  // A: one microbatch's activations at a chunk boundary (0: not asked)
};

// One cell of work in the simulated schedule.
struct PipelineOp {
  int stage = 0;
  int microbatch = 0;
  int chunk = 0;        // model chunk (0..v-1)
  bool forward = true;
  double start = 0, end = 0;
};

struct PipelineResult {
  PipelineInput in;
  double ideal_s = 0;           // m (tf + tb)
  double bubble_s = 0;          // by formula
  double total_s = 0;           // ideal + bubble, by formula
  double bubble_of_total = 0;   // bubble / total
  double bubble_of_ideal = 0;   // bubble / ideal
  double wire_bytes_per_step = 0;  // 2 (v p - 1) m A: every stage's sends together
  // Makespan of the simulated schedule; 0 (and no ops) when p*m*v is too large
  // to simulate (over 200k ops): the formulas above still hold.
  double simulated_total_s = 0;
  // Peak activations held by any stage, in microbatches' worth (a chunk's
  // activations count 1/v): GPipe m, 1F1B p, interleaved a little more than p.
  double peak_inflight_microbatches = 0;
  std::vector<PipelineOp> ops;  // the simulated schedule
  std::string formula;
  std::string explanation;
};

// Throws std::invalid_argument on stages/microbatches/virtual < 1, v > 1
// without the interleaved schedule, interleaved with m not a multiple of p
// (Megatron-LM's requirement), non-positive times.
PipelineResult pipeline(const PipelineInput& in);

// Stage rows, one cell per forward-chunk time: "F3" = forward of microbatch 3
// ("F3b" = its model chunk 1 when v > 1), '.' = idle. A note instead when the
// drawing would be wider than max_width columns.
std::string pipeline_timeline(const PipelineResult& r, std::size_t max_width = 200);

}  // namespace simt::cost
