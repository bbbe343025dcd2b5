// How a serving simulation prints itself: a summary for people, JSON for plots.
#include "cost/serve/serve_sim.hpp"

#include <fmt/core.h>

namespace simt::cost {

namespace {
std::string scheduler_line(const ServeSimInput& in, int64_t max_len) {
  const auto& s = in.sched;
  return fmt::format("{} batching, {} KV{}, {} prefill{}, max {} sequences, prefix hit rate {}",
                     s.continuous ? "continuous (iteration-level)" : "static", s.paged ? "paged" : "contiguous",
                     s.paged ? fmt::format(" (blocks of {} tokens)", s.block_tokens)
                             : fmt::format(" (each request reserves max_model_len {})", max_len),
                     s.chunked_prefill ? "chunked" : "unchunked",
                     s.chunked_prefill ? fmt::format(" ({} tokens per iteration)", s.max_batched_tokens) : "",
                     s.max_seqs, s.prefix_hit);
}
}  // namespace

std::string disagg_line(const ServeSimResult& r) {
  const auto& d = r.in.disagg;
  if (d.prefill_instances == 0) return "";
  return fmt::format("  disaggregated: {} prefill + {} decode instances of {} GPUs; KV transfer {:.3g} ms per request "
                     "on average; memory and batch below are the decode side's\n",
                     d.prefill_instances, d.decode_instances, r.in.tp, r.kv_transfer_mean_s * 1e3);
}

std::string to_text(const ServeSimResult& r) {
  const auto& in = r.in;
  const int64_t total = int64_t(r.requests.size()) + r.rejected;
  std::string o = fmt::format("serve-sim: {} on {} x {} ({}), {} requests\n", in.model->name, in.tp, in.device->name,
                              in.precisions.label(), total);
  // Refused requests first: they are not in any number below.
  if (r.rejected > 0)
    o += fmt::format("  REJECTED {} of {} requests: prompt of max_model_len {} tokens or more, no room for one output\n"
                     "  token (vLLM refuses a prompt longer than max_model_len; nothing is truncated)\n",
                     r.rejected, total, r.max_model_len);
  if (r.capped > 0)
    o += fmt::format("  {} requests stopped at max_model_len {} before their requested output (finish reason "
                     "\"length\")\n",
                     r.capped, r.max_model_len);
  o += fmt::format("  {}\n", scheduler_line(in, r.max_model_len));
  o += disagg_line(r);
  o += fmt::format("  KV pool {} tokens; {} iterations, {} preemptions, instances busy {:.4g} s (summed) over {:.4g} s\n\n",
                   r.kv_capacity_tokens, r.iterations, r.preemptions, r.busy_s, r.makespan_s);
  o += fmt::format("  throughput       {:>10.4g} output tokens/s   {:.4g} requests/s\n", r.throughput_tokens_s,
                   r.requests_per_s);
  o += fmt::format("  goodput          {:>10.4g} requests/s meeting TTFT <= {} s and TPOT <= {} s ({} of {} requests{})\n",
                   r.goodput_requests_s, in.slo_ttft_s, in.slo_tpot_s, r.good_requests, total,
                   r.rejected > 0 ? ", the rejected ones missing" : "");
  o += fmt::format("  TTFT             mean {:.4g} s, p50 {:.4g} s, p99 {:.4g} s\n", r.ttft_mean, r.ttft_p50,
                   r.ttft_p99);
  o += fmt::format("  TPOT             mean {:.4g} ms, p50 {:.4g} ms, p99 {:.4g} ms\n", r.tpot_mean * 1e3,
                   r.tpot_p50 * 1e3, r.tpot_p99 * 1e3);
  o += fmt::format("  batch            mean {:.4g} running sequences, peak {}\n", r.mean_batch, r.peak_batch);
  o += fmt::format("  KV memory        {:.1f}% allocated on average, {:.1f}% holding tokens (the rest is {})\n",
                   100 * r.mean_kv_used, 100 * r.mean_kv_filled,
                   in.sched.paged ? "the unfilled tail of each last block" : "reserved for tokens not generated yet");
  o += "\nEach iteration's time: per-operator rooflines (projections and MLP over the iteration's tokens,\n"
       "attention per request from its KV reads, LM head, TP all-reduces); bounds, not measurements.\n";
  return o;
}

nlohmann::json to_json(const ServeSimResult& r, bool with_samples) {
  const auto& in = r.in;
  nlohmann::json j = {
      {"model", in.model->name}, {"device", in.device->name}, {"tp", in.tp},
      {"continuous", in.sched.continuous}, {"paged", in.sched.paged}, {"block_tokens", in.sched.block_tokens},
      {"chunked_prefill", in.sched.chunked_prefill}, {"max_batched_tokens", in.sched.max_batched_tokens},
      {"max_seqs", in.sched.max_seqs}, {"prefix_hit", in.sched.prefix_hit}, {"max_model_len", r.max_model_len},
      {"kv_capacity_tokens", r.kv_capacity_tokens}, {"requests", r.requests.size()},
      {"rejected", r.rejected}, {"capped", r.capped}, {"good_requests", r.good_requests}, {"iterations", r.iterations},
      {"preemptions", r.preemptions}, {"makespan_s", r.makespan_s}, {"busy_s", r.busy_s},
      {"throughput_tokens_s", r.throughput_tokens_s}, {"requests_per_s", r.requests_per_s},
      {"goodput_requests_s", r.goodput_requests_s}, {"slo_ttft_s", in.slo_ttft_s}, {"slo_tpot_s", in.slo_tpot_s},
      {"ttft_mean_s", r.ttft_mean}, {"ttft_p50_s", r.ttft_p50}, {"ttft_p99_s", r.ttft_p99},
      {"tpot_mean_s", r.tpot_mean}, {"tpot_p50_s", r.tpot_p50}, {"tpot_p99_s", r.tpot_p99},
      {"mean_batch", r.mean_batch}, {"peak_batch", r.peak_batch}, {"mean_kv_used", r.mean_kv_used},
      {"mean_kv_filled", r.mean_kv_filled},
      {"prefill_instances", in.disagg.prefill_instances}, {"decode_instances", in.disagg.decode_instances},
      {"kv_transfer_mean_s", r.kv_transfer_mean_s}};
  if (with_samples) {
    nlohmann::json s = nlohmann::json::array();
    for (const auto& x : r.samples)
      s.push_back({{"t", x.t}, {"kv_used", x.kv_used}, {"kv_filled", x.kv_filled}, {"running", x.running},
                   {"waiting", x.waiting}});
    j["samples"] = s;
  }
  return j;
}

}  // namespace simt::cost
