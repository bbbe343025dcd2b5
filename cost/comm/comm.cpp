#include "cost/comm/comm.hpp"

#include "util/near_miss.hpp"
#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace simt::cost {
namespace {

constexpr int kMaxGpus = 1 << 20;

struct Named { Collective op; const char* name; };
constexpr Named kCollectives[] = {
    {Collective::broadcast, "broadcast"},           {Collective::reduce, "reduce"},
    {Collective::all_reduce, "all-reduce"},         {Collective::reduce_scatter, "reduce-scatter"},
    {Collective::all_gather, "all-gather"},         {Collective::all_to_all, "all-to-all"},
};

// Steps and bytes-on-the-wire of one algorithm. Ring forms follow the nccl-tests
// derivation (each of n ranks sends (n-1)/n of S per reduce or gather pass).
// Tree follows NCCL's model of its double binary tree (tuning.cc): latency grows
// with log2(n), bandwidth is half the bus bandwidth, i.e. 2S/B for all-reduce.
struct Shape { int steps; double wire; const char* formula; };

Shape ring_shape(Collective op, int n) {
  const double f = double(n - 1) / n;
  switch (op) {
    case Collective::all_reduce: return {2 * (n - 1), 2 * f, "2(n-1)*alpha + 2(n-1)/n * S/B"};
    case Collective::reduce_scatter: return {n - 1, f, "(n-1)*alpha + (n-1)/n * S/B"};
    case Collective::all_gather: return {n - 1, f, "(n-1)*alpha + (n-1)/n * S/B"};
    case Collective::all_to_all: return {n - 1, f, "(n-1)*alpha + (n-1)/n * S/B  (pairwise exchange)"};
    // Pipelined chain from/to the root: the root's link carries all of S.
    case Collective::broadcast: return {n - 1, 1.0, "(n-1)*alpha + S/B  (pipelined chain)"};
    case Collective::reduce: return {n - 1, 1.0, "(n-1)*alpha + S/B  (pipelined chain)"};
  }
  throw std::logic_error("unhandled collective");
}

Shape tree_shape(Collective op, int n) {
  const int depth = static_cast<int>(std::ceil(std::log2(n)));
  switch (op) {
    case Collective::all_reduce: return {2 * depth, 2.0, "2*ceil(log2 n)*alpha + 2 * S/B  (double binary tree)"};
    case Collective::broadcast:
    case Collective::reduce: return {depth, 1.0, "ceil(log2 n)*alpha + S/B  (pipelined tree)"};
    default:
      throw std::invalid_argument(fmt::format(
          "--algo tree is modelled for all-reduce, broadcast and reduce only; NCCL runs {} as a ring",
          to_string(op)));
  }
}

std::string explain(const CommResult& r, const LinkSpec& link) {
  std::string s;
  s += fmt::format("{} of S = {} over n = {} GPUs, {} ({})\n", to_string(r.op), format_bytes(r.bytes), r.gpus,
                   to_string(r.algo), link.name);
  s += fmt::format("  model     = alpha-beta: time = {}\n", r.formula);
  s += fmt::format("  alpha     = {} per step ({})\n", format_seconds(r.alpha_s),
                   link.fields.count("latency_us") ? link.fields.at("latency_us").source : "catalog");
  s += fmt::format("  B         = {} per GPU per direction ({})\n", format_rate(r.beta_bw, "B/s"), link.source);
  s += fmt::format("  latency   = {} steps x {} = {}\n", r.steps, format_seconds(r.alpha_s), format_seconds(r.latency_s));
  s += fmt::format("  transfer  = {:.4g} x {} / {} = {}\n", r.wire_factor, format_bytes(r.bytes),
                   format_rate(r.beta_bw, "B/s"), format_seconds(r.transfer_s));
  s += fmt::format("  time      = {}  ({}-bound)\n", format_seconds(r.time_s),
                   r.latency_s > r.transfer_s ? "latency" : "bandwidth");
  s += fmt::format("  algbw     = S / time = {}\n", format_rate(r.algbw, "B/s"));
  s += fmt::format("  busbw     = algbw x {:.4g} = {}  (nccl-tests factor for {}; "
                   "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md)\n",
                   r.bus_factor, format_rate(r.busbw, "B/s"), to_string(r.op));
  s += "  caveat    = ideal link use, one channel per direction, no congestion, no protocol\n"
       "              overhead; NCCL switches protocol (LL/LL128/Simple) by size, which this ignores.\n";
  return s;
}

}  // namespace

Collective parse_collective(const std::string& name) {
  std::vector<std::string> names = collective_names();
  if (auto i = find_name(name, names)) return kCollectives[*i].op;
  throw std::invalid_argument(unknown_name_message("collective", name, names));
}

std::string to_string(Collective op) {
  for (const Named& n : kCollectives)
    if (n.op == op) return n.name;
  throw std::logic_error("unhandled collective");
}

std::vector<std::string> collective_names() {
  std::vector<std::string> out;
  for (const Named& n : kCollectives) out.push_back(n.name);
  return out;
}

CommAlgo parse_comm_algo(const std::string& name) {
  if (name == "ring") return CommAlgo::ring;
  if (name == "tree") return CommAlgo::tree;
  throw std::invalid_argument(fmt::format("unknown algorithm '{}'; use ring or tree", name));
}

std::string to_string(CommAlgo algo) { return algo == CommAlgo::ring ? "ring" : "tree"; }

double bus_factor(Collective op, int n) {
  switch (op) {
    case Collective::all_reduce: return 2.0 * (n - 1) / n;
    case Collective::reduce_scatter:
    case Collective::all_gather:
    case Collective::all_to_all: return double(n - 1) / n;
    case Collective::broadcast:
    case Collective::reduce: return 1.0;
  }
  throw std::logic_error("unhandled collective");
}

CommResult collective_time(Collective op, double bytes, int gpus, const LinkSpec& link, CommAlgo algo) {
  if (!std::isfinite(bytes) || bytes <= 0)
    throw std::invalid_argument(fmt::format("bytes must be > 0, got {}", bytes));
  if (gpus < 2)
    throw std::invalid_argument(fmt::format("a collective needs at least 2 GPUs, got {}", gpus));
  if (gpus > kMaxGpus)  // also keeps 2(n-1) steps far from int overflow
    throw std::invalid_argument(fmt::format("{} GPUs is more than the {} this model accepts", gpus, kMaxGpus));
  Shape shape = algo == CommAlgo::ring ? ring_shape(op, gpus) : tree_shape(op, gpus);
  CommResult r;
  r.op = op;
  r.algo = algo;
  r.bytes = bytes;
  r.gpus = gpus;
  r.link = link.name;
  r.alpha_s = link.latency_s;
  r.beta_bw = link.bandwidth;
  r.steps = shape.steps;
  r.wire_factor = shape.wire;
  r.formula = shape.formula;
  r.latency_s = shape.steps * link.latency_s;
  r.transfer_s = shape.wire * bytes / link.bandwidth;
  r.time_s = r.latency_s + r.transfer_s;
  r.algbw = bytes / r.time_s;
  r.bus_factor = bus_factor(op, gpus);
  r.busbw = r.algbw * r.bus_factor;
  r.explanation = explain(r, link);
  return r;
}

}  // namespace simt::cost
