#include "cost/train/pipeline.hpp"

#include "util/near_miss.hpp"
#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>

namespace simt::cost {

Schedule parse_schedule(const std::string& name) {
  std::vector<std::string> names = {"gpipe", "1f1b", "interleaved"};
  if (auto i = find_name(name, names)) return static_cast<Schedule>(*i);
  throw std::invalid_argument(unknown_name_message("schedule", name, names));
}

std::string to_string(Schedule s) {
  switch (s) {
    case Schedule::gpipe: return "gpipe";
    case Schedule::one_f_one_b: return "1f1b";
    case Schedule::interleaved: return "interleaved";
  }
  throw std::logic_error("unhandled schedule");
}

BubbleConvention parse_bubble_convention(const std::string& name) {
  if (name == "total") return BubbleConvention::of_total;
  if (name == "ideal") return BubbleConvention::of_ideal;
  throw std::invalid_argument(fmt::format(
      "unknown bubble convention '{}'; use total ((p-1)/(m+p-1), GPipe) or ideal ((p-1)/m, Megatron-LM)", name));
}

namespace {

constexpr double kMaxSimulatedOps = 200000;  // stage x microbatch x chunk

void validate(const PipelineInput& in) {
  if (in.stages < 1) throw std::invalid_argument(fmt::format("stages must be >= 1, got {}", in.stages));
  if (in.microbatches < 1)
    throw std::invalid_argument(fmt::format("microbatches must be >= 1, got {}", in.microbatches));
  if (in.virtual_stages < 1)
    throw std::invalid_argument(fmt::format("virtual stages must be >= 1, got {}", in.virtual_stages));
  if (in.virtual_stages > 1 && in.schedule != Schedule::interleaved)
    throw std::invalid_argument("--virtual > 1 needs --schedule interleaved");
  if (in.schedule == Schedule::interleaved && in.microbatches % in.stages != 0)
    throw std::invalid_argument(fmt::format(
        "interleaved schedule needs microbatches ({}) to be a multiple of stages ({}), as in Megatron-LM",
        in.microbatches, in.stages));
  if (!(in.forward_s > 0) || !(in.backward_s > 0) || !std::isfinite(in.forward_s) || !std::isfinite(in.backward_s))
    throw std::invalid_argument("forward and backward times must be > 0");
  if (!(in.activation_bytes >= 0) || !std::isfinite(in.activation_bytes))
    throw std::invalid_argument("activation bytes must be >= 0");
}

// The order in which one stage runs its ops (before timing).
using StageOrder = std::vector<PipelineOp>;

PipelineOp op(int s, int mb, int chunk, bool fwd) { return {s, mb, chunk, fwd, 0, 0}; }

StageOrder gpipe_order(int s, int m) {
  StageOrder o;
  for (int i = 0; i < m; ++i) o.push_back(op(s, i, 0, true));
  for (int i = 0; i < m; ++i) o.push_back(op(s, i, 0, false));
  return o;
}

// 1F1B: warm up with (p - s - 1) forwards, alternate one forward / one backward,
// drain the remaining backwards (Megatron-LM, schedule without interleaving).
StageOrder one_f_one_b_order(int s, int p, int m) {
  int warmup = std::min(p - s - 1, m);
  StageOrder o;
  for (int i = 0; i < warmup; ++i) o.push_back(op(s, i, 0, true));
  for (int i = warmup; i < m; ++i) {
    o.push_back(op(s, i, 0, true));
    o.push_back(op(s, i - warmup, 0, false));
  }
  for (int i = m - warmup; i < m; ++i) o.push_back(op(s, i, 0, false));
  return o;
}

// Interleaved 1F1B (Megatron-LM): microbatches go through in groups of p; the
// k-th forward on a stage is chunk (k mod pv)/p of microbatch (k div pv)p + k mod p,
// backwards walk the chunks in reverse. Warm-up is (p - s - 1)*2 + (v - 1)p.
StageOrder interleaved_order(int s, int p, int m, int v) {
  const int total = m * v;
  auto mb = [&](int k) { return (k / (p * v)) * p + k % p; };
  auto fwd = [&](int k) { return op(s, mb(k), (k % (p * v)) / p, true); };
  auto bwd = [&](int k) { return op(s, mb(k), v - 1 - (k % (p * v)) / p, false); };
  int warmup = std::min((p - s - 1) * 2 + (v - 1) * p, total);
  StageOrder o;
  for (int k = 0; k < warmup; ++k) o.push_back(fwd(k));
  for (int k = 0; k < total - warmup; ++k) {
    o.push_back(fwd(warmup + k));
    o.push_back(bwd(k));
  }
  for (int k = total - warmup; k < total; ++k) o.push_back(bwd(k));
  return o;
}

using Key = std::tuple<int, int, int, bool>;  // stage, microbatch, chunk, forward
Key key(const PipelineOp& o) { return {o.stage, o.microbatch, o.chunk, o.forward}; }

// The op that must finish before `o` can start on another stage: the previous
// model position for a forward, the next one for a backward.
std::optional<Key> dependency(const PipelineOp& o, int p, int v) {
  if (o.forward) {
    if (o.stage > 0) return Key{o.stage - 1, o.microbatch, o.chunk, true};
    if (o.chunk > 0) return Key{p - 1, o.microbatch, o.chunk - 1, true};
    return std::nullopt;
  }
  if (o.stage < p - 1) return Key{o.stage + 1, o.microbatch, o.chunk, false};
  if (o.chunk < v - 1) return Key{0, o.microbatch, o.chunk + 1, false};
  return Key{o.stage, o.microbatch, o.chunk, true};  // last position: its own forward
}

// Runs every stage's order as early as dependencies allow.
std::vector<PipelineOp> simulate(std::vector<StageOrder> orders, const PipelineInput& in) {
  const int p = in.stages, v = in.virtual_stages;
  const double tf = in.forward_s / v, tb = in.backward_s / v;
  std::map<Key, double> done;  // end times
  std::vector<std::size_t> next(p, 0);
  std::vector<double> free_at(p, 0);
  std::vector<PipelineOp> out;
  for (bool progress = true; progress;) {
    progress = false;
    for (int s = 0; s < p; ++s) {
      while (next[s] < orders[s].size()) {
        PipelineOp o = orders[s][next[s]];
        double ready = free_at[s];
        if (auto dep = dependency(o, p, v)) {
          auto it = done.find(*dep);
          if (it == done.end()) break;  // wait for another stage
          ready = std::max(ready, it->second);
        }
        o.start = ready;
        o.end = ready + (o.forward ? tf : tb);
        free_at[s] = o.end;
        done[key(o)] = o.end;
        out.push_back(o);
        ++next[s];
        progress = true;
      }
    }
  }
  for (int s = 0; s < p; ++s)
    if (next[s] != orders[s].size()) throw std::logic_error("pipeline schedule deadlocked");
  return out;
}

double peak_inflight(const std::vector<StageOrder>& orders, int v) {
  int peak = 0;
  for (const StageOrder& o : orders) {
    int live = 0;
    for (const PipelineOp& op : o) peak = std::max(peak, live += op.forward ? 1 : -1);
  }
  return double(peak) / v;
}

std::string explain(const PipelineResult& r) {
  const PipelineInput& in = r.in;
  std::string s;
  s += fmt::format("{} schedule, p = {} stages, m = {} microbatches, v = {}\n", to_string(in.schedule), in.stages,
                   in.microbatches, in.virtual_stages);
  s += fmt::format("  tf, tb    = {}, {} per microbatch per stage\n", format_seconds(in.forward_s),
                   format_seconds(in.backward_s));
  s += fmt::format("  ideal     = m (tf+tb) = {} x {} = {}\n", in.microbatches,
                   format_seconds(in.forward_s + in.backward_s), format_seconds(r.ideal_s));
  s += fmt::format("  bubble    = {} = {}\n", r.formula, format_seconds(r.bubble_s));
  s += fmt::format("  of total  = bubble / (ideal + bubble) = {:.4f}   [GPipe convention: (p-1)/(v m + p-1)]\n",
                   r.bubble_of_total);
  s += fmt::format("  of ideal  = bubble / ideal = {:.4f}             [Megatron-LM convention: (p-1)/(v m)]\n",
                   r.bubble_of_ideal);
  if (r.ops.empty()) {
    s += "  simulated = no: too many ops to simulate; the formula stands alone\n";
  } else {
    s += fmt::format("  simulated = {} makespan of the schedule (formula: {})\n", format_seconds(r.simulated_total_s),
                     format_seconds(r.total_s));
    s += fmt::format("  memory    = peak activations held by a stage: {:.3g} microbatches' worth\n",
                     r.peak_inflight_microbatches);
  }
  s += "  sources   = Huang et al. 2019 (GPipe, arXiv:1811.06965); Narayanan et al. 2021\n"
       "              (Megatron-LM PTD-P, arXiv:2104.04473, sec. 2.2)\n"
       "  caveat    = equal stage times, no p2p send/recv time, no optimizer step; real\n"
       "              pipelines add the slowest stage's imbalance to every microbatch.\n";
  return s;
}

}  // namespace

PipelineResult pipeline(const PipelineInput& in) {
  validate(in);
  const int p = in.stages, m = in.microbatches, v = in.virtual_stages;
  PipelineResult r;
  r.in = in;
  const double step = in.forward_s + in.backward_s;
  r.ideal_s = m * step;
  r.bubble_s = (p - 1) * step / v;
  r.total_s = r.ideal_s + r.bubble_s;
  r.bubble_of_total = r.bubble_s / r.total_s;
  r.bubble_of_ideal = r.bubble_s / r.ideal_s;
  r.wire_bytes_per_step = 2.0 * (double(v) * p - 1) * m * in.activation_bytes;
  r.formula = v > 1 ? "(p-1)(tf+tb)/v" : "(p-1)(tf+tb)";

  // The simulation is for seeing and checking the schedule; past a few hundred
  // thousand ops it would only burn time and memory, so the formula stands alone.
  if (double(p) * m * v > kMaxSimulatedOps) {
    r.explanation = explain(r);
    return r;
  }
  std::vector<StageOrder> orders;
  for (int s = 0; s < p; ++s) {
    switch (in.schedule) {
      case Schedule::gpipe: orders.push_back(gpipe_order(s, m)); break;
      case Schedule::one_f_one_b: orders.push_back(one_f_one_b_order(s, p, m)); break;
      case Schedule::interleaved: orders.push_back(interleaved_order(s, p, m, v)); break;
    }
  }
  r.ops = simulate(orders, in);
  for (const PipelineOp& o : r.ops) r.simulated_total_s = std::max(r.simulated_total_s, o.end);
  r.peak_inflight_microbatches = peak_inflight(orders, v);
  r.explanation = explain(r);
  return r;
}

std::string pipeline_timeline(const PipelineResult& r, std::size_t max_width) {
  const PipelineInput& in = r.in;
  if (r.ops.empty()) return "(timeline not drawn: schedule too large to simulate)\n";
  const int v = in.virtual_stages;
  const double unit = std::min(in.forward_s, in.backward_s) / v;
  const std::size_t cells = static_cast<std::size_t>(std::lround(r.simulated_total_s / unit));
  const int digits = static_cast<int>(fmt::format("{}", in.microbatches - 1).size());
  // Cell: F/B, microbatch number, and with v > 1 the model chunk as a letter.
  const std::size_t label_width = 1 + digits + (v > 1 ? 1 : 0);
  if (cells * (label_width + 1) > max_width)
    return fmt::format("(timeline not drawn: {} cells do not fit in {} columns; try fewer microbatches or --width)\n",
                       cells, max_width);
  std::vector<std::vector<std::string>> grid(in.stages, std::vector<std::string>(cells, std::string(label_width, '.')));
  for (const PipelineOp& o : r.ops) {
    std::string label = fmt::format("{}{:<{}}", o.forward ? 'F' : 'B', o.microbatch, digits);
    if (v > 1) label += static_cast<char>('a' + o.chunk);
    auto first = static_cast<std::size_t>(std::lround(o.start / unit));
    auto last = static_cast<std::size_t>(std::lround(o.end / unit));
    for (std::size_t c = first; c < last && c < cells; ++c) grid[o.stage][c] = label;
  }
  std::string out;
  for (int s = 0; s < in.stages; ++s) {
    out += fmt::format("stage {:<2}|", s);
    for (const std::string& cell : grid[s]) out += cell + " ";
    out.pop_back();
    out += "|\n";
  }
  out += fmt::format("one cell = {}{}; F/B = forward/backward of microbatch N{}; '.' = idle (bubble)\n",
                     v > 1 ? "tf/v = " : "tf = ", format_seconds(unit),
                     v > 1 ? ", suffix a, b, ... = model chunk 0, 1, ..." : "");
  return out;
}

}  // namespace simt::cost
