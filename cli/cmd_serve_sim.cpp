// simt serve-sim: drive a request trace through a serving scheduler and report
// TTFT, TPOT, throughput, goodput and KV use (cost/serve/serve_sim).
#include "commands.hpp"
#include "options.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/serve/serve_sim.hpp"
#include "models/zoo.hpp"

#include <fmt/core.h>

#include <climits>
#include <cmath>
#include <memory>

namespace simt::cli {

namespace {

struct SimFlags {
  std::string model, device, dtype = "bf16", weights, kv, trace, dist = "exponential", disaggregate, transfer_link;
  long long tp = 1, requests = 500, block = 16, max_seqs = 256, int4_group = 128, gpus_per_node = 8;
  std::string link, inter_link;
  double rate = 10, memory_fraction = 0.9, prefix_hit = 0, slo_ttft = 1.0, slo_tpot = 0.1;
  long long prompt_mean = 512, output_mean = 256, max_batched_tokens = 2048, max_model_len = 0;
  uint64_t seed = 1;
  bool static_batching = false, contiguous = false, no_chunked = false, compare = false, json = false,
       samples = false;
};

// "P:D": P prefill and D decode instances.
cost::Disaggregation parse_disaggregation(const std::string& text) {
  const auto colon = text.find(':');
  int p = 0, d = 0;
  try {
    if (colon != std::string::npos) p = std::stoi(text.substr(0, colon)), d = std::stoi(text.substr(colon + 1));
  } catch (const std::exception&) {
    p = d = 0;
  }
  if (p < 1 || d < 1)
    throw std::invalid_argument("--disaggregate takes PREFILL:DECODE instance counts, each >= 1 (e.g. 1:3), got '" +
                                text + "'");
  return {p, d, nullptr};
}

cost::ServeSimInput input_for(const SimFlags& f) {
  cost::ServeSimInput in;
  in.model = &models::find_model(f.model);
  in.device = &cost::Catalog::builtin().accelerator(f.device);
  const auto pick = [&](const std::string& g) {
    return cost::parse_format(g.empty() ? f.dtype : g, int(f.int4_group));
  };
  in.precisions = {pick(f.weights), cost::parse_format(f.dtype), pick(f.kv)};
  in.tp = int(f.tp);
  if (!f.link.empty()) in.topology.intra = &cost::Catalog::builtin().link(f.link);
  if (!f.inter_link.empty()) in.topology.inter = &cost::Catalog::builtin().link(f.inter_link);
  in.topology.gpus_per_node = int(f.gpus_per_node);
  in.memory_fraction = f.memory_fraction;
  if (!(f.memory_fraction > 0 && f.memory_fraction <= 1))
    throw std::invalid_argument(fmt::format("--memory-fraction must be in (0, 1], got {}", f.memory_fraction));
  in.sched = {.continuous = !f.static_batching, .paged = !f.contiguous, .block_tokens = int(f.block),
              .chunked_prefill = !f.no_chunked, .max_batched_tokens = f.max_batched_tokens, .max_seqs = int(f.max_seqs),
              .prefix_hit = f.prefix_hit, .max_model_len = f.max_model_len};
  if (!f.trace.empty()) {
    in.trace = cost::read_trace_csv(f.trace);
  } else {
    in.trace = cost::synthetic_trace({.requests = int(f.requests), .rate_per_s = f.rate, .prompt_mean = f.prompt_mean,
                                      .output_mean = f.output_mean, .dist = cost::parse_length_dist(f.dist),
                                      .max_len = 0, .seed = f.seed});  // the server rejects or caps, not the trace
  }
  if (!f.disaggregate.empty()) in.disagg = parse_disaggregation(f.disaggregate);
  if (!f.transfer_link.empty()) in.disagg.transfer_link = &cost::Catalog::builtin().link(f.transfer_link);
  in.slo_ttft_s = f.slo_ttft;
  in.slo_tpot_s = f.slo_tpot;
  return in;
}

// The same trace under the four combinations the lectures compare.
void compare(const cost::ServeSimInput& base, bool json) {
  struct Variant { const char* name; bool continuous, paged; };
  const Variant variants[] = {{"static + contiguous", false, false}, {"static + paged", false, true},
                              {"continuous + contiguous", true, false}, {"continuous + paged", true, true}};
  nlohmann::json out = nlohmann::json::array();
  if (!json)
    fmt::print("{:<26} {:>12} {:>10} {:>10} {:>10} {:>10} {:>10}\n", "scheduler", "tokens/s", "goodput", "mean batch",
               "peak", "TTFT p50", "TPOT p50");
  for (const auto& v : variants) {
    auto in = base;
    in.sched.continuous = v.continuous;
    in.sched.paged = v.paged;
    const auto r = cost::simulate_serving(in);
    if (json) {
      auto j = cost::to_json(r, false);
      j["variant"] = v.name;
      out.push_back(j);
      continue;
    }
    fmt::print("{:<26} {:>12.5g} {:>10.4g} {:>10.4g} {:>10} {:>8.4g} s {:>7.4g} ms\n", v.name, r.throughput_tokens_s,
               r.goodput_requests_s, r.mean_batch, r.peak_batch, r.ttft_p50, r.tpot_p50 * 1e3);
  }
  if (json) fmt::print("{}\n", out.dump(2));
}

}  // namespace

void add_serve_sim_command(CLI::App& app) {
  auto f = std::make_shared<SimFlags>();
  auto* c = app.add_subcommand("serve-sim", "Simulate LLM serving: continuous batching, paged KV, TTFT/TPOT/goodput");
  add_model_option(c, f->model)->required();
  add_accelerator_option(c, f->device)->required();
  add_count_option(c, "--tp", f->tp, "tensor-parallel GPUs", 1, INT32_MAX)->capture_default_str();
  c->add_option("--link", f->link, "link inside a server (default: the device's NVLink or PCIe)");
  c->add_option("--inter-link", f->inter_link,
                "link between servers (default: IB-NDR for Hopper/Blackwell, else IB-HDR)");
  add_count_option(c, "--gpus-per-node", f->gpus_per_node, "GPUs per server", 1, 1024)->capture_default_str();
  c->add_option("--dtype", f->dtype, "activations (and weights, KV unless given)")->capture_default_str();
  c->add_option("--weights", f->weights, "weight precision (int4, int8, fp8, bf16 ...)");
  c->add_option("--kv", f->kv, "KV-cache precision");
  c->add_option("--memory-fraction", f->memory_fraction, "fraction of HBM for weights + KV")->capture_default_str();
  c->add_option("--trace", f->trace, "CSV with arrival_s,prompt_tokens,output_tokens (default: synthetic)");
  add_count_option(c, "--requests", f->requests, "synthetic: number of requests", 1, 10000000)->capture_default_str();
  c->add_option("--rate", f->rate, "synthetic: Poisson arrivals per second (inf: all at once)")->capture_default_str();
  add_count_option(c, "--prompt-mean", f->prompt_mean, "synthetic: mean prompt tokens", 1, 100000000)
      ->capture_default_str();
  add_count_option(c, "--output-mean", f->output_mean, "synthetic: mean output tokens", 1, 100000000)
      ->capture_default_str();
  c->add_option("--dist", f->dist, "synthetic lengths: exponential, uniform, fixed")->capture_default_str();
  c->add_option("--seed", f->seed, "synthetic: random seed")->capture_default_str();
  c->add_flag("--static", f->static_batching, "static batching: a batch runs to completion before the next");
  c->add_flag("--contiguous", f->contiguous, "contiguous KV: reserve max_model_len per request");
  add_count_option(c, "--block", f->block, "paged KV block size in tokens", 1, 65536)->capture_default_str();
  c->add_flag("--no-chunked-prefill", f->no_chunked, "whole prompts in prefill-only iterations");
  add_count_option(c, "--max-batched-tokens", f->max_batched_tokens, "token budget per iteration", 1, 100000000)
      ->capture_default_str();
  add_count_option(c, "--max-seqs", f->max_seqs, "running sequences at most", 1, 1000000)->capture_default_str();
  c->add_option("--prefix-hit", f->prefix_hit, "fraction of each prompt found in the prefix cache")
      ->capture_default_str();
  add_count_option(c, "--max-model-len", f->max_model_len, "longest request, prompt + output (0: the model's context); longer prompts are rejected", 0,
                   100000000);
  c->add_option("--slo-ttft", f->slo_ttft, "goodput SLO: time to first token, s")->capture_default_str();
  c->add_option("--slo-tpot", f->slo_tpot, "goodput SLO: time per output token, s")->capture_default_str();
  c->add_option("--disaggregate", f->disaggregate, "P:D prefill and decode instances of --tp GPUs each (DistServe)");
  c->add_option("--transfer-link", f->transfer_link, "KV transfer link, per GPU (default: IB-NDR/HDR by generation)");
  c->add_flag("--compare", f->compare, "static vs continuous x contiguous vs paged on the same trace");
  c->add_flag("--json", f->json, "print JSON");
  c->add_flag("--samples", f->samples, "with --json: KV use and batch per iteration (for plots/serve_sim.py)");
  c->callback([f] {
    const auto in = input_for(*f);
    if (f->compare) return compare(in, f->json);
    const auto r = cost::simulate_serving(in);
    if (f->json) fmt::print("{}\n", cost::to_json(r, f->samples).dump(2));
    else fmt::print("{}", cost::to_text(r));
  });
}

}  // namespace simt::cli
