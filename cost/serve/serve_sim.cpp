// The scheduler loop. Per iteration: admit waiting requests that fit (FCFS;
// static batching only when the GPU is idle), choose the iteration's work
// (chunked: every decode plus prompt chunks up to the token budget; unchunked:
// pending prefills first, else all decodes), grow paged KV a block at a time and
// preempt the newest request (recompute, as vLLM does) when the pool is full,
// price the iteration, advance the clock, retire finished requests.
#include "cost/serve/serve_sim.hpp"

#include "cost/serve/kv_cache.hpp"
#include "cost/serve/serve_iteration.hpp"
#include "cost/train/layout_check.hpp"
#include "models/params.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <stdexcept>

namespace simt::cost {

namespace {

struct Seq {
  const Request* req = nullptr;
  int64_t kv_tokens = 0;       // tokens whose K/V are in the cache
  int64_t prefill_target = 0;  // tokens to (re)compute before decoding: the prompt, or more after preemption
  int64_t generated = 0;
  int64_t allocated = 0;       // KV tokens reserved for it (whole blocks, or max_model_len)
  double first_token_s = -1;
  int preemptions = 0;
  bool in_prefill() const { return kv_tokens < prefill_target; }
};

struct Pool {
  int64_t capacity = 0, used = 0;
  bool paged = true;
  int64_t block = 16, reserve = 0;
  int64_t round_up(int64_t tokens) const { return paged ? (tokens + block - 1) / block * block : reserve; }
  bool reserve_for(Seq& s, int64_t tokens) {
    const int64_t need = round_up(tokens) - s.allocated;
    if (need <= 0) return true;
    if (used + need > capacity) return false;
    used += need;
    s.allocated += need;
    return true;
  }
  void release(Seq& s) {
    used -= s.allocated;
    s.allocated = 0;
  }
};

struct Sim {
  const ServeSimInput& in;
  IterationModel model;
  Pool pool;
  std::vector<Seq> seqs;
  std::deque<Seq*> waiting;
  std::vector<Seq*> running;  // admission order
  ServeSimResult r;
  double t = 0;
  int finished = 0;

  void admit() {
    if (!in.sched.continuous && !running.empty()) return;
    while (!waiting.empty() && int(running.size()) < in.sched.max_seqs) {
      Seq* s = waiting.front();
      if (!pool.reserve_for(*s, s->prefill_target)) break;  // FCFS: nobody overtakes the head
      waiting.pop_front();
      running.push_back(s);
    }
  }

  void preempt(Seq* victim) {
    pool.release(*victim);
    victim->prefill_target = victim->req->prompt + victim->generated;
    victim->kv_tokens = 0;
    victim->preemptions++;
    r.preemptions++;
    running.erase(std::find(running.begin(), running.end(), victim));
    waiting.push_front(victim);
  }

  // Every decoding sequence needs room for one more token. When the pool is full
  // the newest running sequence is preempted, possibly this one.
  void make_room_for_decodes() {
    for (size_t i = 0; i < running.size(); ++i) {
      Seq* s = running[i];
      if (s->in_prefill()) continue;
      while (!pool.reserve_for(*s, s->kv_tokens + 1)) {
        Seq* victim = running.back();
        preempt(victim);
        if (victim == s) break;  // s was the newest: it left the batch and the loop ends
      }
    }
  }

  struct Work { std::vector<std::pair<Seq*, int64_t>> prefills; std::vector<Seq*> decodes; };

  Work choose_work() {
    Work w;
    int64_t budget = in.sched.max_batched_tokens;
    const bool any_prefill = std::any_of(running.begin(), running.end(), [](Seq* s) { return s->in_prefill(); });
    if (in.sched.chunked_prefill || !any_prefill)
      for (Seq* s : running)
        if (!s->in_prefill()) w.decodes.push_back(s);
    if (!in.sched.chunked_prefill && !w.decodes.empty()) return w;  // decode-only iteration
    budget -= int64_t(w.decodes.size());
    for (Seq* s : running) {
      if (!s->in_prefill()) continue;
      const int64_t left = s->prefill_target - s->kv_tokens;
      // Unchunked, a whole prompt goes in even past the budget if it is the first.
      const bool fits = w.prefills.empty() || left <= budget;
      const int64_t chunk = in.sched.chunked_prefill ? std::min(left, budget) : (fits ? left : 0);
      if (chunk <= 0) break;
      w.prefills.push_back({s, chunk});
      budget -= chunk;
    }
    return w;
  }

  double price(const Work& w) {
    IterationBatch b;
    for (auto [s, c] : w.prefills) {
      const double past = double(s->kv_tokens);
      b.prefill_tokens += c;
      b.prefill_pairs += double(c) * past + double(c) * double(c + 1) / 2;
      b.prefill_kv_tokens += past + double(c);
      if (s->kv_tokens + c == s->prefill_target) b.logits_rows++;
    }
    for (Seq* s : w.decodes) b.decode_kv_tokens += double(s->kv_tokens);
    b.decode_seqs = int64_t(w.decodes.size());
    b.logits_rows += b.decode_seqs;
    return model.time_s(b);
  }

  void emit(Seq* s) {
    s->generated++;
    if (s->first_token_s < 0) s->first_token_s = t;
  }

  void advance(const Work& w) {
    for (auto [s, c] : w.prefills) {
      s->kv_tokens += c;
      if (!s->in_prefill()) emit(s);  // the prefill's last position yields the next token
    }
    for (Seq* s : w.decodes) {
      s->kv_tokens++;
      emit(s);
    }
    std::vector<Seq*> still;
    for (Seq* s : running) {
      if (s->generated < s->req->output) {
        still.push_back(s);
        continue;
      }
      pool.release(*s);
      r.requests.push_back({s->req->id, s->req->arrival_s, s->first_token_s, t, s->req->prompt, s->req->output,
                            s->preemptions});
      finished++;
    }
    running = std::move(still);
  }

  void sample(double dt) {
    double filled = 0;
    for (Seq* s : running) filled += double(s->kv_tokens);
    const double cap = double(pool.capacity);
    r.mean_batch += dt * double(running.size());
    r.mean_kv_used += dt * double(pool.used) / cap;
    r.mean_kv_filled += dt * filled / cap;
    r.peak_batch = std::max(r.peak_batch, int(running.size()));
    r.samples.push_back({t, double(pool.used) / cap, filled / cap, int(running.size()), int(waiting.size())});
  }

  void run() {
    const auto& trace = in.trace;
    size_t next = 0;
    while (finished < int(trace.size())) {
      while (next < trace.size() && trace[next].arrival_s <= t) waiting.push_back(&seqs[next++]);
      if (running.empty() && waiting.empty()) {
        t = trace[next].arrival_s;
        continue;
      }
      admit();
      if (running.empty()) throw std::logic_error("serve-sim: nothing admitted although the pool was checked");
      make_room_for_decodes();
      const Work w = choose_work();
      const double dt = price(w);
      t += dt;
      r.busy_s += dt;
      r.iterations++;
      advance(w);
      sample(dt);
    }
  }
};

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[size_t(std::floor(q * double(v.size() - 1)))];
}

// Busy-time averages of one instance, and a thinned sample list (<= ~2000) for JSON.
void finish_instance(ServeSimResult& r) {
  const double busy = std::max(r.busy_s, 1e-300);
  r.mean_batch /= busy;
  r.mean_kv_used /= busy;
  r.mean_kv_filled /= busy;
  if (r.samples.size() > 2000) {
    const size_t stride = (r.samples.size() + 1999) / 2000;
    std::vector<SimSample> thin;
    for (size_t i = 0; i < r.samples.size(); i += stride) thin.push_back(r.samples[i]);
    thin.push_back(r.samples.back());
    r.samples = std::move(thin);
  }
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / double(v.size());
}

int64_t kv_capacity_tokens(const ServeSimInput& in) {
  const auto& m = *in.model;
  const double weights = double(models::count_params(m).total) * in.precisions.weights.bytes;
  const double usable = double(in.tp) * in.device->hbm_bytes * in.memory_fraction;
  if (usable <= weights)
    throw std::invalid_argument(fmt::format("{} weights ({:.2f} GB) do not fit in {} x {} at {}: use more GPUs",
                                            m.name, weights / 1e9, in.tp, in.device->name, in.memory_fraction));
  const double per_token = kv_cache_size(m, in.precisions.kv.bytes).bytes_per_token * kv_replication(m, in.tp);
  return int64_t((usable - weights) / per_token);
}

void validate(const ServeSimInput& in, int64_t max_len, int64_t capacity) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  const auto& s = in.sched;
  if (s.block_tokens < 1 || s.max_seqs < 1 || s.max_batched_tokens < 1)
    throw std::invalid_argument("block size, max sequences and max batched tokens must be >= 1");
  if (!(s.prefix_hit >= 0 && s.prefix_hit < 1))
    throw std::invalid_argument(fmt::format("prefix hit rate must be in [0, 1), got {}", s.prefix_hit));
  require_positive(in.slo_ttft_s, "the TTFT SLO");
  require_positive(in.slo_tpot_s, "the TPOT SLO");
  for (const auto& q : in.trace)
    if (q.prompt + q.output > max_len)
      throw std::invalid_argument(fmt::format("request {} needs {} + {} tokens, more than max_model_len {}", q.id,
                                              q.prompt, q.output, max_len));
  if (max_len < 2)
    throw std::invalid_argument(fmt::format("max_model_len must be at least 2 (one prompt and one output token), got {}",
                                            max_len));
  if (capacity < max_len)
    throw std::invalid_argument(fmt::format("the KV pool holds {} tokens, less than one request of max_model_len {}",
                                            capacity, max_len));
}

}  // namespace

void summarise_requests(ServeSimResult& r, const ServeSimInput& in) {
  std::vector<double> ttft, tpot;
  int64_t tokens = 0;
  int good = 0;
  double first = 1e300, last = 0;
  for (const auto& q : r.requests) {
    ttft.push_back(q.ttft());
    if (q.output > 1) tpot.push_back(q.tpot());
    tokens += q.output;
    good += q.ttft() <= in.slo_ttft_s && q.tpot() <= in.slo_tpot_s;
    first = std::min(first, q.arrival_s);
    last = std::max(last, q.finish_s);
  }
  r.makespan_s = r.requests.empty() ? 0 : last - first;
  const double span = std::max(r.makespan_s, 1e-12);
  r.throughput_tokens_s = double(tokens) / span;
  r.requests_per_s = double(r.requests.size()) / span;
  r.goodput_requests_s = double(good) / span;
  r.good_requests = good;
  r.ttft_mean = mean(ttft);
  r.tpot_mean = mean(tpot);
  r.ttft_p50 = percentile(ttft, 0.5);
  r.ttft_p99 = percentile(ttft, 0.99);
  r.tpot_p50 = percentile(tpot, 0.5);
  r.tpot_p99 = percentile(tpot, 0.99);
}

ServeSimResult simulate_instance(const ServeSimInput& in, bool prefilled) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  const int64_t max_len = in.sched.max_model_len > 0 ? in.sched.max_model_len : in.model->context;
  const int64_t capacity = kv_capacity_tokens(in);
  validate(in, max_len, capacity);
  Sim sim{in, IterationModel(*in.model, *in.device, in.precisions, in.tp, in.topology), {}, {}, {}, {}, {}, 0, 0};
  sim.pool = {in.sched.paged ? capacity / in.sched.block_tokens * in.sched.block_tokens : capacity, 0,
              in.sched.paged, in.sched.block_tokens, max_len};
  sim.seqs.reserve(in.trace.size());
  for (const auto& q : in.trace) {
    Seq s;
    s.req = &q;
    s.prefill_target = q.prompt;
    if (prefilled) {  // the prompt's K/V arrived from a prefill instance with the first token
      s.kv_tokens = q.prompt;
      s.generated = 1;
      s.first_token_s = q.arrival_s;
    } else {  // prefix-cache hits exist already; at least the last prompt token is computed
      s.kv_tokens = std::min(q.prompt - 1, int64_t(std::floor(in.sched.prefix_hit * double(q.prompt))));
    }
    sim.seqs.push_back(s);
  }
  sim.run();
  ServeSimResult r = std::move(sim.r);
  r.in = in;
  r.in.trace.clear();
  r.kv_capacity_tokens = capacity;
  r.max_model_len = max_len;
  finish_instance(r);
  summarise_requests(r, in);
  return r;
}

ServeSimResult simulate_serving(const ServeSimInput& in) {
  if (!in.model || !in.device) throw std::invalid_argument("a model and a device are required");
  if (in.trace.empty()) throw std::invalid_argument("the trace has no requests");
  const int64_t max_len = in.sched.max_model_len > 0 ? in.sched.max_model_len : in.model->context;
  // vLLM's admission: a prompt longer than max_model_len is refused (an error to
  // the client, not a truncated prompt); generation stops at max_model_len.
  ServeSimInput admitted = in;
  admitted.trace.clear();
  int64_t rejected = 0, capped = 0;
  for (Request q : in.trace) {
    if (q.prompt >= max_len) {
      ++rejected;
      continue;
    }
    if (q.prompt + q.output > max_len) {
      q.output = max_len - q.prompt;
      ++capped;
    }
    admitted.trace.push_back(q);
  }
  ServeSimResult r;
  if (admitted.trace.empty()) {  // nothing to serve: every request was refused
    validate(admitted, max_len, kv_capacity_tokens(in));
    r.in = in;
    r.in.trace.clear();
    r.kv_capacity_tokens = kv_capacity_tokens(in);
    r.max_model_len = max_len;
  } else if (in.disagg.prefill_instances > 0 || in.disagg.decode_instances > 0) {
    r = simulate_disaggregated(admitted);
  } else {
    r = simulate_instance(admitted, false);
  }
  r.rejected = rejected;
  r.capped = capped;
  return r;
}

}  // namespace simt::cost
