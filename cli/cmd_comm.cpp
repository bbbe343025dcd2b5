// simt comm | pipeline | ddp | zero | tp | moe: communication and parallelism
// models on the command line. Glue only: every number comes from cost/.
#include "commands.hpp"
#include "options.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/catalog/table.hpp"
#include "cost/catalog/units.hpp"
#include "cost/comm/comm.hpp"
#include "cost/comm/json.hpp"
#include "cost/comm/nccl_model.hpp"
#include "cost/comm/topology.hpp"
#include "cost/train/ddp.hpp"
#include "cost/train/json.hpp"
#include "cost/train/moe_comm.hpp"
#include "cost/train/pipeline.hpp"
#include "cost/train/tp_comm.hpp"
#include "cost/train/zero_comm.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>
#include <stdexcept>

namespace simt::cli {
namespace {

using namespace simt::cost;
using nlohmann::json;

// The most ranks a collective accepts (cost/comm/comm.cpp's limit).
constexpr long long kMaxRanks = 1 << 20;

// Options every communication command shares.
struct Common {
  std::string link;
  std::string algo = "ring";
  bool json = false;
  bool explain = false;
};

void add_common(CLI::App* cmd, Common& c, bool link_required = true) {
  auto* link = cmd->add_option("--link,-l", c.link, "link type (see `simt devices`), e.g. NVLink4, IB-NDR");
  if (link_required) link->required();
  cmd->add_option("--algo", c.algo, "ring or tree (tree: all-reduce, broadcast, reduce)")
      ->check(CLI::IsMember({"ring", "tree"}));
  cmd->add_flag("--json", c.json, "print JSON");
  cmd->add_flag("--explain", c.explain, "print formulas, values plugged in and sources");
}

double positive(const std::string& text, const char* what) {
  double v = parse_quantity(text, what);
  if (v <= 0) throw std::invalid_argument(fmt::format("{} must be > 0, got '{}'", what, text));
  return v;
}

// Prints a plan as text, JSON or with explanation.
void print_plan(const CommPlan& plan, const Common& c) {
  if (c.json) {
    fmt::print("{}\n", to_json(plan).dump(2));
    return;
  }
  fmt::print("{}", plan.explanation);
  if (c.explain)
    for (const CommPhase& ph : plan.phases) fmt::print("\n{}: {}", ph.what, ph.each.explanation);
}

// ---- comm ----------------------------------------------------------------

struct CommOptions {
  Common c;
  std::string op, model = "nccl", inter_link;
  double bytes = 0;
  long long gpus = 0, nodes = 1;
  bool sweep = false;
};

// ---- comm --model nccl: NCCL's own tuning model, calibrated on 2xH200 -----

NcclRing nccl_ring(const CommOptions& o, const LinkSpec& link) {
  if (o.gpus % o.nodes != 0)
    throw std::invalid_argument(fmt::format("--nodes {}: {} GPUs do not split evenly", o.nodes, o.gpus));
  const LinkSpec* inter = o.nodes > 1 ? &Catalog::builtin().link(o.inter_link.empty() ? "IB-NDR" : o.inter_link) : nullptr;
  return {int(o.gpus), int(o.nodes), &link, inter};
}

json nccl_json(Collective op, double bytes, const NcclTime& t, const NcclRing& ring) {
  return {{"op", to_string(op)}, {"bytes", bytes}, {"gpus", ring.ranks}, {"nodes", ring.nodes},
          {"link", ring.intra->name}, {"inter_link", ring.inter ? ring.inter->name : ""},
          {"model", "nccl"}, {"protocol", t.protocol}, {"latency_s", t.latency_s}, {"time_s", t.seconds},
          {"algbw", t.algbw}, {"busbw", t.busbw}, {"bus_factor", bus_factor(op, ring.ranks)},
          {"calibrated", t.calibrated}, {"host_call_s", nccl_call_s(*ring.intra)}};
}

void run_comm_nccl(const CommOptions& o, Collective op, const LinkSpec& link) {
  const NcclRing ring = nccl_ring(o, link);
  if (o.sweep) {
    Table t({"size>", "time>", "algbw>", "busbw>", "protocol"});
    json out = json::array();
    for (double s = 8; s <= o.bytes * (1 + 1e-12); s *= 2) {
      const NcclTime r = nccl_time(op, s, ring);
      out.push_back(nccl_json(op, s, r, ring));
      t.add({format_bytes(s), format_seconds(r.seconds), format_rate(r.algbw, "B/s"), format_rate(r.busbw, "B/s"), r.protocol});
    }
    if (o.c.json) return (void)fmt::print("{}\n", out.dump(2));
    fmt::print("{} over {} GPUs, {} (NCCL's ring and protocols{})\n{}", to_string(op), o.gpus, link.name,
               out[0]["calibrated"].get<bool>() ? "; calibrated on 2x H200" : "; uncalibrated link", t.str());
    return;
  }
  const NcclTime r = nccl_time(op, o.bytes, ring);
  if (o.c.json) return (void)fmt::print("{}\n", nccl_json(op, o.bytes, r, ring).dump(2));
  fmt::print("{} of {} over {} GPUs{}, {} (NCCL's ring, {} protocol)\n", to_string(op), format_bytes(o.bytes), o.gpus,
             o.nodes > 1 ? fmt::format(" on {} nodes", o.nodes) : "", link.name, r.protocol);
  Table t({"term", "value>", "how"});
  t.add({"latency", format_seconds(r.latency_s), "NCCL's baseLat + steps x hwLat (src/graph/tuning.cc)"});
  t.add({"transfer", format_seconds(r.seconds - r.latency_s), fmt::format("S / algbw")});
  t.add({"time", format_seconds(r.seconds), r.calibrated ? "on the GPUs; calibrated on 2x H200 (NVLink4)" : "uncalibrated link"});
  t.add({"host", format_seconds(nccl_call_s(link)), "the host's cost per call: back to back, a call takes at least this"});
  t.add({"algbw", format_rate(r.algbw, "B/s"), "S / transfer time"});
  t.add({"busbw", format_rate(r.busbw, "B/s"), fmt::format("algbw x {:.4g} (nccl-tests factor)", bus_factor(op, int(o.gpus)))});
  fmt::print("{}", t.str());
  if (o.c.explain) fmt::print("\n{}\n(docs/multi-gpu.md, 'The collective clock'; --model alpha-beta for the textbook formula)\n", r.sentence);
}

void print_comm(const CommResult& r) {
  fmt::print("{} of {} over {} GPUs, {} ({})\n", to_string(r.op), format_bytes(r.bytes), r.gpus, r.link,
             to_string(r.algo));
  Table t({"term", "value>", "how"});
  t.add({"latency", format_seconds(r.latency_s), fmt::format("{} steps x {}", r.steps, format_seconds(r.alpha_s))});
  t.add({"transfer", format_seconds(r.transfer_s),
         fmt::format("{:.4g} x {} / {}", r.wire_factor, format_bytes(r.bytes), format_rate(r.beta_bw, "B/s"))});
  t.add({"time", format_seconds(r.time_s), r.latency_s > r.transfer_s ? "latency-bound" : "bandwidth-bound"});
  t.add({"algbw", format_rate(r.algbw, "B/s"), "S / time"});
  t.add({"busbw", format_rate(r.busbw, "B/s"), fmt::format("algbw x {:.4g} (nccl-tests factor)", r.bus_factor)});
  fmt::print("{}", t.str());
}

// nccl-tests-style table: sizes doubling from 8 B up to the given size.
void print_sweep(Collective op, double max_bytes, int gpus, const LinkSpec& link, CommAlgo algo, bool as_json) {
  Table t({"size>", "time>", "algbw>", "busbw>", "bound"});
  json out = json::array();
  for (double s = 8; s <= max_bytes * (1 + 1e-12); s *= 2) {
    CommResult r = collective_time(op, s, gpus, link, algo);
    out.push_back(to_json(r));
    t.add({format_bytes(s), format_seconds(r.time_s), format_rate(r.algbw, "B/s"), format_rate(r.busbw, "B/s"),
           r.latency_s > r.transfer_s ? "latency" : "bandwidth"});
  }
  if (as_json) {
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("{} over {} GPUs, {} ({})\n{}", to_string(op), gpus, link.name, to_string(algo), t.str());
}

void run_comm(const CommOptions& o) {
  Collective op = parse_collective(o.op);
  const LinkSpec& link = Catalog::builtin().link(o.c.link);
  if (o.model == "nccl") {
    if (o.c.algo != "ring") throw std::invalid_argument("--model nccl runs NCCL's ring; --algo tree is --model alpha-beta's");
    return run_comm_nccl(o, op, link);
  }
  if (o.nodes != 1) throw std::invalid_argument("--nodes is --model nccl's");
  const double bytes = o.bytes;
  CommAlgo algo = parse_comm_algo(o.c.algo);
  if (o.sweep) return print_sweep(op, bytes, int(o.gpus), link, algo, o.c.json);
  CommResult r = collective_time(op, bytes, int(o.gpus), link, algo);
  if (o.c.json) {
    json j = to_json(r);
    if (o.c.explain) j["explanation"] = r.explanation;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  print_comm(r);
  if (o.c.explain) fmt::print("\n{}", r.explanation);
}

void add_comm(CLI::App& app) {
  auto o = std::make_shared<CommOptions>();
  auto* cmd = app.add_subcommand("comm", "Time of a collective (NCCL's model, or alpha-beta), with nccl-tests algbw and busbw");
  cmd->add_option("op", o->op, "broadcast, reduce, all-reduce, reduce-scatter, all-gather, all-to-all")->required();
  add_whole_quantity_option(cmd, "--bytes,-b", o->bytes, "size S in nccl-tests' sense (e.g. 1GiB, 64M)")->required();
  add_count_option(cmd, "--gpus,-g", o->gpus, "number of GPUs (ranks)", 2, kMaxRanks)->required();
  cmd->add_flag("--sweep", o->sweep, "nccl-tests-style table for sizes 8 B .. --bytes");
  cmd->add_option("--model", o->model,
                  "nccl (default: NCCL's ring and protocols, calibrated on 2x H200) or alpha-beta (the textbook formula)")
      ->check(CLI::IsMember({"nccl", "alpha-beta"}));
  add_count_option(cmd, "--nodes", o->nodes, "machines the GPUs are split over (--model nccl)", 1, kMaxRanks);
  cmd->add_option("--inter-link", o->inter_link, "the network between nodes (--model nccl; default IB-NDR)");
  add_common(cmd, o->c);
  cmd->callback([o] { run_comm(*o); });
}

// ---- pipeline ------------------------------------------------------------

struct PipelineOptions {
  int stages = 0, microbatches = 0, virtual_stages = 1;
  std::string schedule, forward = "1s", backward, convention = "total";
  double activation_bytes = 0;
  std::size_t width = 200;
  bool json = false, explain = false;
};

void run_pipeline(const PipelineOptions& o) {
  PipelineInput in;
  in.stages = o.stages;
  in.microbatches = o.microbatches;
  in.virtual_stages = o.virtual_stages;
  // --virtual > 1 only makes sense interleaved: take it as the request.
  in.schedule = !o.schedule.empty() ? parse_schedule(o.schedule)
                                    : (o.virtual_stages > 1 ? Schedule::interleaved : Schedule::one_f_one_b);
  in.forward_s = parse_seconds(o.forward, "--forward");
  in.backward_s = o.backward.empty() ? 2 * in.forward_s : parse_seconds(o.backward, "--backward");
  in.activation_bytes = o.activation_bytes;
  BubbleConvention conv = parse_bubble_convention(o.convention);
  PipelineResult r = pipeline(in);
  if (o.json) {
    json j = to_json(r);
    j["convention"] = o.convention;
    j["bubble_fraction"] = conv == BubbleConvention::of_total ? r.bubble_of_total : r.bubble_of_ideal;
    if (o.explain) j["explanation"] = r.explanation;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  double frac = conv == BubbleConvention::of_total ? r.bubble_of_total : r.bubble_of_ideal;
  fmt::print("{} pipeline: p = {}, m = {}, v = {}; tf = {}, tb = {}\n", to_string(in.schedule), in.stages,
             in.microbatches, in.virtual_stages, format_seconds(in.forward_s), format_seconds(in.backward_s));
  fmt::print("bubble = {} = {}; fraction {:.4f} of {} time ({})\n", r.formula, format_seconds(r.bubble_s), frac,
             conv == BubbleConvention::of_total ? "total" : "ideal",
             conv == BubbleConvention::of_total ? "(p-1)/(v m + p-1), GPipe convention; --convention ideal for (p-1)/(v m)"
                                                : "(p-1)/(v m), Megatron-LM convention; --convention total for (p-1)/(v m + p-1)");
  fmt::print("step = {} (ideal {})", format_seconds(r.total_s), format_seconds(r.ideal_s));
  if (!r.ops.empty()) fmt::print("; peak activations on a stage: {:.3g} microbatches", r.peak_inflight_microbatches);
  fmt::print("\n");
  if (in.activation_bytes > 0)
    fmt::print("point-to-point: 2 (v p - 1) m A = 2 x {} x {} x {} = {} a step over all links\n",
               in.virtual_stages * in.stages - 1, in.microbatches, format_bytes(in.activation_bytes),
               format_bytes(r.wire_bytes_per_step));
  fmt::print("\n");
  fmt::print("{}", pipeline_timeline(r, o.width));
  if (o.explain) fmt::print("\n{}", r.explanation);
}

void add_pipeline(CLI::App& app) {
  auto o = std::make_shared<PipelineOptions>();
  auto* cmd = app.add_subcommand("pipeline", "Pipeline bubble (GPipe, 1F1B, interleaved 1F1B) with an ASCII timeline");
  cmd->add_option("--stages,-p", o->stages, "pipeline stages p")->required();
  cmd->add_option("--microbatches,-m", o->microbatches, "microbatches per step m")->required();
  cmd->add_option("--virtual,-v", o->virtual_stages, "model chunks per stage v (interleaved)");
  cmd->add_option("--schedule", o->schedule, "gpipe, 1f1b (default) or interleaved");
  cmd->add_option("--forward", o->forward, "forward time per microbatch per stage (default 1s: time in units of tf)");
  cmd->add_option("--backward", o->backward, "backward time per microbatch per stage (default 2 x forward)");
  add_quantity_option(cmd, "--activation-bytes", o->activation_bytes,
                      "one microbatch's activations at a stage boundary (b s h x bytes, e.g. 64KiB): adds the bytes sent");
  cmd->add_option("--convention", o->convention, "bubble fraction of 'total' time (GPipe) or of 'ideal' time (Megatron)")
      ->check(CLI::IsMember({"total", "ideal"}));
  cmd->add_option("--width", o->width, "widest timeline to draw, in columns");
  cmd->add_flag("--json", o->json, "print JSON (with every simulated op)");
  cmd->add_flag("--explain", o->explain, "print formulas and sources");
  cmd->callback([o] { run_pipeline(*o); });
}

// ---- ddp -----------------------------------------------------------------

struct DdpOptions {
  Common c;
  std::string backward, grad_bytes = "4";
  double params = 0, bucket = 25.0 * 1024 * 1024;
  long long gpus = 0;
};

void run_ddp(const DdpOptions& o) {
  const LinkSpec& link = Catalog::builtin().link(o.c.link);
  DdpInput in;
  in.params = o.params;
  in.backward_s = parse_seconds(o.backward, "--backward");
  in.bucket_bytes = o.bucket;
  in.grad_bytes_per_param = positive(o.grad_bytes, "--grad-bytes");
  in.gpus = int(o.gpus);
  in.algo = parse_comm_algo(o.c.algo);
  DdpResult r = ddp_overlap(in, link);
  if (o.c.json) {
    json j = to_json(r);
    if (o.c.explain) j["explanation"] = r.explanation;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  Table t({"quantity", "value>"});
  t.add({"gradients", format_bytes(r.grad_bytes)});
  // r.in: a bucket larger than the gradients is one bucket of the gradients' size.
  t.add({"buckets", fmt::format("{} x {}", r.buckets.size(), format_bytes(r.in.bucket_bytes))});
  t.add({"backward compute", format_seconds(in.backward_s)});
  t.add({"all-reduce total", format_seconds(r.comm_total_s)});
  t.add({"exposed comm", format_seconds(r.exposed_s)});
  t.add({"step (overlapped)", format_seconds(r.step_s)});
  t.add({"step (no overlap)", format_seconds(r.no_overlap_s)});
  t.add({"comm hidden", fmt::format("{:.1f}%", 100 * r.hidden_fraction)});
  fmt::print("DDP over {} GPUs, {} ({})\n{}", in.gpus, link.name, to_string(in.algo), t.str());
  if (o.c.explain) fmt::print("\n{}", r.explanation);
}

void add_ddp(CLI::App& app) {
  auto o = std::make_shared<DdpOptions>();
  auto* cmd = app.add_subcommand("ddp", "Data-parallel gradient buckets overlapped with backward: exposed communication");
  add_whole_quantity_option(cmd, "--params", o->params, "parameters (e.g. 1.3e9, 7G)")->required();
  cmd->add_option("--backward", o->backward, "backward compute time per step (e.g. 120ms)")->required();
  add_count_option(cmd, "--gpus,-g", o->gpus, "data-parallel GPUs", 2, kMaxRanks)->required();
  add_whole_quantity_option(cmd, "--bucket", o->bucket,
                            "bucket size in bytes (default 25MiB, PyTorch bucket_cap_mb=25; larger than the "
                            "gradients: one bucket)");
  cmd->add_option("--grad-bytes", o->grad_bytes, "bytes per gradient element (4 fp32, 2 bf16)");
  add_common(cmd, o->c);
  cmd->callback([o] { run_ddp(*o); });
}

// ---- zero ----------------------------------------------------------------

struct ZeroOptions {
  Common c;
  std::string bytes = "2";
  double params = 0;
  long long stage = -1, gpus = 0;
};

void run_zero(const ZeroOptions& o) {
  const LinkSpec& link = Catalog::builtin().link(o.c.link);
  ZeroCommInput in;
  in.params = o.params;
  in.bytes_per_element = positive(o.bytes, "--bytes-per-param");
  in.gpus = int(o.gpus);
  in.algo = parse_comm_algo(o.c.algo);
  if (o.stage >= 0) {
    in.stage = int(o.stage);
    return print_plan(zero_comm(in, link), o.c);
  }
  // No stage given: compare all four, which is what the ZeRO paper's sec. 7 does.
  Table t({"stage", "collectives", "sent per GPU>", "x Psi>", "time>"});
  json out = json::array();
  for (int s = 0; s <= 3; ++s) {
    in.stage = s;
    CommPlan plan = zero_comm(in, link);
    std::string ops;
    for (const CommPhase& ph : plan.phases) ops += (ops.empty() ? "" : " + ") + to_string(ph.op);
    t.add({fmt::format("{}", s), ops, format_bytes(plan.wire_bytes_per_gpu),
           fmt::format("{:.3f}", plan.wire_bytes_per_gpu / (in.params * in.bytes_per_element)),
           format_seconds(plan.time_s)});
    json j = to_json(plan);
    j["stage"] = s;
    out.push_back(j);
  }
  if (o.c.json) {
    fmt::print("{}\n", out.dump(2));
    return;
  }
  fmt::print("ZeRO communication per training step, Psi = {:.4g} params x {} B, {} GPUs over {}\n{}", in.params,
             in.bytes_per_element, in.gpus, link.name, t.str());
  fmt::print("x Psi -> 2 (stages 0-2) and 3 (stage 3) as n grows: Rajbhandari et al. 2020, arXiv:1910.02054 sec. 7.\n"
             "Memory per GPU: see `simt budget train --zero S`.\n");
}

void add_zero(CLI::App& app) {
  auto o = std::make_shared<ZeroOptions>();
  auto* cmd = app.add_subcommand("zero", "ZeRO stage 0-3 communication volume and time per training step");
  add_whole_quantity_option(cmd, "--params", o->params, "parameters Psi (e.g. 7.5e9)")->required();
  add_count_option(cmd, "--stage", o->stage, "0, 1, 2 or 3 (default: compare all)", 0, 3);
  add_count_option(cmd, "--gpus,-g", o->gpus, "data-parallel GPUs", 2, kMaxRanks)->required();
  cmd->add_option("--bytes-per-param", o->bytes, "bytes per communicated element (2: fp16/bf16, as in the paper)");
  add_common(cmd, o->c);
  cmd->callback([o] { run_zero(*o); });
}

// ---- tp ------------------------------------------------------------------

struct TpOptions {
  Common c;
  std::string bytes = "2";
  double batch = 1, seq = 0, hidden = 0;
  long long tp = 0, layers = 1, heads = 0;
  bool inference = false, sp = false;
};

void add_tp(CLI::App& app) {
  auto o = std::make_shared<TpOptions>();
  auto* cmd = app.add_subcommand("tp", "Tensor-parallel (Megatron) all-reduces per transformer layer");
  add_whole_quantity_option(cmd, "--batch", o->batch, "sequences per microbatch b (default 1)");
  add_whole_quantity_option(cmd, "--seq", o->seq, "sequence length s")->required();
  add_whole_quantity_option(cmd, "--hidden", o->hidden, "hidden size h: a multiple of --tp")->required();
  add_count_option(cmd, "--tp", o->tp, "tensor-parallel degree: divides --hidden and --heads", 2, kMaxRanks)
      ->required();
  add_count_option(cmd, "--heads", o->heads, "attention heads (optional): a multiple of --tp", 1, 1000000);
  add_count_option(cmd, "--layers", o->layers, "layers (totals are for all of them)", 1, 100000)
      ->capture_default_str();
  cmd->add_option("--bytes-per-element", o->bytes, "activation bytes (2: bf16)");
  cmd->add_flag("--inference", o->inference, "forward only");
  cmd->add_flag("--sp", o->sp, "sequence parallelism (reduce-scatter + all-gather)");
  add_common(cmd, o->c);
  cmd->callback([o] {
    TpCommInput in;
    in.batch = o->batch;
    in.seq = o->seq;
    in.hidden = o->hidden;
    in.heads = o->heads;
    in.bytes_per_element = positive(o->bytes, "--bytes-per-element");
    in.tp = int(o->tp);
    in.layers = int(o->layers);
    in.training = !o->inference;
    in.sequence_parallel = o->sp;
    in.algo = parse_comm_algo(o->c.algo);
    print_plan(tp_comm(in, Catalog::builtin().link(o->c.link)), o->c);
  });
}

// ---- moe -----------------------------------------------------------------

struct MoeOptions {
  Common c;
  std::string capacity = "1", bytes = "2";
  double tokens = 0, hidden = 0;
  long long top_k = 0, ep = 0, layers = 1;
  bool inference = false;
};

void add_moe(CLI::App& app) {
  auto o = std::make_shared<MoeOptions>();
  auto* cmd = app.add_subcommand("moe", "MoE expert-parallel all-to-all volume and time per MoE layer");
  add_whole_quantity_option(cmd, "--tokens", o->tokens, "tokens per GPU per microbatch (b x s)")->required();
  add_whole_quantity_option(cmd, "--hidden", o->hidden, "hidden size h")->required();
  add_count_option(cmd, "--top-k", o->top_k, "experts per token", 1, 1024)->required();
  add_count_option(cmd, "--ep", o->ep, "expert-parallel degree (GPUs in the all-to-all)", 2, kMaxRanks)->required();
  cmd->add_option("--capacity", o->capacity, "capacity factor (default 1)");
  add_count_option(cmd, "--layers", o->layers, "MoE layers (totals are for all of them)", 1, 100000)
      ->capture_default_str();
  cmd->add_option("--bytes-per-element", o->bytes, "activation bytes (2: bf16)");
  cmd->add_flag("--inference", o->inference, "forward only");
  add_common(cmd, o->c);
  cmd->callback([o] {
    MoeCommInput in;
    in.tokens = o->tokens;
    in.hidden = o->hidden;
    in.capacity_factor = positive(o->capacity, "--capacity");
    in.bytes_per_element = positive(o->bytes, "--bytes-per-element");
    in.top_k = int(o->top_k);
    in.ep = int(o->ep);
    in.layers = int(o->layers);
    in.training = !o->inference;
    in.algo = parse_comm_algo(o->c.algo);
    print_plan(moe_comm(in, Catalog::builtin().link(o->c.link)), o->c);
  });
}

}  // namespace

void add_comm_commands(CLI::App& app) {
  add_comm(app);
  add_pipeline(app);
  add_ddp(app);
  add_zero(app);
  add_tp(app);
  add_moe(app);
}

}  // namespace simt::cli
