// Disaggregated serving: prefill instances run only prompts (each request cut to
// its first token), the KV cache of each prompt crosses the transfer link (each of
// the tp GPUs sends its shard over its own NIC), then a decode instance that
// starts with the prompt cached generates the remaining tokens. TTFT ends on the
// prefill side; TPOT spans the transfer and the decode side, as DistServe
// (Zhong et al. OSDI 2024) measures it.
#include "cost/comm/topology.hpp"
#include "cost/serve/kv_cache.hpp"
#include "cost/serve/serve_sim.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>

namespace simt::cost {

namespace {

// Request i goes to instance i mod n; each instance's trace stays sorted by arrival.
std::vector<std::vector<Request>> round_robin(std::vector<Request> trace, int n) {
  std::stable_sort(trace.begin(), trace.end(),
                   [](const Request& a, const Request& b) { return a.arrival_s < b.arrival_s; });
  std::vector<std::vector<Request>> out(static_cast<size_t>(n));
  for (size_t i = 0; i < trace.size(); ++i) out[i % size_t(n)].push_back(trace[i]);
  return out;
}

double transfer_s(const ServeSimInput& in, int64_t prompt) {
  const auto& m = *in.model;
  const LinkSpec* fallback = in.topology.inter ? in.topology.inter : &default_network_link(*in.device);
  const LinkSpec& link = in.disagg.transfer_link ? *in.disagg.transfer_link : *fallback;
  const double per_token = kv_cache_size(m, in.precisions.kv.bytes).bytes_per_token * kv_replication(m, in.tp);
  const double bytes = per_token * double(prompt);
  return link.latency_s + bytes / (in.tp * link.bandwidth);
}

void add_instance(ServeSimResult& total, const ServeSimResult& part) {
  total.iterations += part.iterations;
  total.preemptions += part.preemptions;
  total.busy_s += part.busy_s;
}

}  // namespace

ServeSimResult simulate_disaggregated(const ServeSimInput& in) {
  const auto& d = in.disagg;
  if (d.prefill_instances < 1 || d.decode_instances < 1 || d.prefill_instances + d.decode_instances > 4096)
    throw std::invalid_argument(fmt::format("disaggregation needs >= 1 prefill and >= 1 decode instance (got {}:{})",
                                            d.prefill_instances, d.decode_instances));
  ServeSimResult total;
  std::map<int, RequestTiming> timing;  // by request id
  std::vector<Request> to_decode;
  double transfer_sum = 0;
  for (auto part : round_robin(in.trace, d.prefill_instances)) {
    for (auto& q : part) q.output = 1;  // a prefill instance stops at the first token
    ServeSimInput p = in;
    p.trace = std::move(part);
    const ServeSimResult r = simulate_instance(p, false);
    add_instance(total, r);
    for (const auto& t : r.requests) timing[t.id] = t;
  }
  for (const auto& q : in.trace) {
    RequestTiming& t = timing.at(q.id);
    t.output = q.output;
    if (q.output == 1) continue;
    const double move = transfer_s(in, q.prompt);
    transfer_sum += move;
    to_decode.push_back({q.id, t.first_token_s + move, q.prompt, q.output});
  }
  std::vector<ServeSimResult> decoders;
  if (!to_decode.empty())
    for (auto part : round_robin(to_decode, d.decode_instances)) {
      if (part.empty()) continue;
      ServeSimInput dec = in;
      dec.trace = std::move(part);
      decoders.push_back(simulate_instance(dec, true));
      add_instance(total, decoders.back());
      for (const auto& t : decoders.back().requests) {
        timing.at(t.id).finish_s = t.finish_s;
        timing.at(t.id).preemptions += t.preemptions;
      }
    }
  for (auto& [id, t] : timing) total.requests.push_back(t);
  if (!decoders.empty()) {  // the decode side's memory and batch: where the KV cache lives
    total.samples = decoders.front().samples;
    total.kv_capacity_tokens = decoders.front().kv_capacity_tokens;
    total.max_model_len = decoders.front().max_model_len;
    for (const auto& r : decoders) {
      total.mean_batch += r.mean_batch / double(decoders.size());
      total.mean_kv_used += r.mean_kv_used / double(decoders.size());
      total.mean_kv_filled += r.mean_kv_filled / double(decoders.size());
      total.peak_batch = std::max(total.peak_batch, r.peak_batch);
    }
  }
  total.kv_transfer_mean_s = to_decode.empty() ? 0 : transfer_sum / double(to_decode.size());
  total.in = in;
  total.in.trace.clear();
  summarise_requests(total, in);
  return total;
}

}  // namespace simt::cost
