// The serving simulator: traces, the iteration model against the step model,
// and the mechanisms the lectures attribute to each scheduler feature.
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"
#include "cost/serve/kv_cache.hpp"
#include "cost/serve/serve_iteration.hpp"
#include "cost/serve/serve_sim.hpp"
#include "cost/train/step_time.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

using namespace simt;
using namespace simt::cost;

namespace {
ServeSimInput llama_on_a100(int requests, double rate) {
  ServeSimInput in;
  in.model = &models::find_model("llama3-8b");
  in.device = &Catalog::builtin().device("A100-80GB-SXM");
  in.trace = synthetic_trace({.requests = requests, .rate_per_s = rate, .prompt_mean = 512, .output_mean = 256});
  return in;
}
}  // namespace

TEST_CASE("synthetic traces: reproducible, Poisson arrivals at the given rate") {
  const auto a = synthetic_trace({.requests = 20000, .rate_per_s = 5, .seed = 7});
  const auto b = synthetic_trace({.requests = 20000, .rate_per_s = 5, .seed = 7});
  CHECK(a.back().arrival_s == b.back().arrival_s);
  // Mean inter-arrival 1/rate = 0.2 s; the standard error over 20000 draws is 0.7%.
  CHECK(a.back().arrival_s / a.size() == doctest::Approx(0.2).epsilon(0.03));
  double prompt = 0;
  for (const auto& r : a) prompt += double(r.prompt);
  CHECK(prompt / a.size() == doctest::Approx(512).epsilon(0.03));
  CHECK_THROWS_AS(synthetic_trace({.requests = 0}), std::invalid_argument);
  CHECK_THROWS_AS(synthetic_trace({.rate_per_s = -1}), std::invalid_argument);
}

TEST_CASE("CSV traces: header by name, errors name the line") {
  const std::string path = "serve_sim_trace_test.csv";
  std::ofstream(path) << "prompt_tokens,arrival_s,output_tokens\n100,0.5,10\n200,0.1,20\n";
  const auto t = read_trace_csv(path);
  REQUIRE(t.size() == 2);
  CHECK(t[0].arrival_s == 0.1);  // sorted by arrival
  CHECK(t[0].prompt == 200);
  std::ofstream(path) << "arrival_s,prompt_tokens,output_tokens\n0,abc,3\n";
  CHECK_THROWS_WITH_AS(read_trace_csv(path), doctest::Contains(":2: prompt_tokens"), std::runtime_error);
  std::remove(path.c_str());
}

TEST_CASE("one request alone: TTFT is its prefill step, TPOT its decode step (same per-operator model)") {
  ServeSimInput in = llama_on_a100(1, 1);
  in.trace = {{0, 0.0, 1024, 65}};
  const auto r = simulate_serving(in);
  REQUIRE(r.requests.size() == 1);
  StepInput base;
  base.model = in.model;
  base.device = in.device;
  base.phase = models::Phase::Prefill;
  base.seq = 1024;
  CHECK(r.requests[0].ttft() == doctest::Approx(step_time(base).time_s).epsilon(0.02));
  StepInput decode = base;
  decode.phase = models::Phase::Decode;
  decode.seq = 1024 + 32;  // the middle of its 64 decode steps
  CHECK(r.requests[0].tpot() == doctest::Approx(step_time(decode).time_s).epsilon(0.02));
}

TEST_CASE("PagedAttention's mechanism: at the same memory, paged KV runs a larger batch than contiguous") {
  // Kwon et al. 2023 (SOSP, arXiv:2309.06180), sec. 2.3 and Fig. 2: systems that reserve
  // the maximum length per request use 20-38% of their KV memory for tokens; vLLM ~96%.
  ServeSimInput in = llama_on_a100(1500, 40);
  in.sched.paged = false;
  const auto contiguous = simulate_serving(in);
  in.sched.paged = true;
  const auto paged = simulate_serving(in);
  // Contiguous: never more requests than whole max_model_len reservations fit in the pool.
  CHECK(contiguous.peak_batch <= contiguous.kv_capacity_tokens / contiguous.max_model_len);
  CHECK(paged.peak_batch > 2 * contiguous.peak_batch);
  CHECK(paged.throughput_tokens_s > contiguous.throughput_tokens_s);
  // Of what is allocated, paged KV wastes at most one partial block per request.
  CHECK(contiguous.mean_kv_filled / contiguous.mean_kv_used < 0.38);
  CHECK(paged.mean_kv_filled / paged.mean_kv_used > 0.9);
}

TEST_CASE("continuous batching beats static batching on the same trace") {
  ServeSimInput in = llama_on_a100(800, 20);
  in.sched.continuous = false;
  const auto batch = simulate_serving(in);
  in.sched.continuous = true;
  const auto orca = simulate_serving(in);
  CHECK(orca.throughput_tokens_s > 1.2 * batch.throughput_tokens_s);
  CHECK(orca.ttft_p50 < batch.ttft_p50);
  CHECK(orca.goodput_requests_s >= batch.goodput_requests_s);
}

TEST_CASE("chunked prefill trades TTFT for smoother decodes; prefix hits cut TTFT") {
  ServeSimInput in = llama_on_a100(600, 20);
  const auto chunked = simulate_serving(in);
  in.sched.chunked_prefill = false;
  const auto whole = simulate_serving(in);
  CHECK(chunked.tpot_p99 < whole.tpot_p99);  // decodes no longer stall behind whole prompts
  in.sched.chunked_prefill = true;
  in.sched.prefix_hit = 0.5;
  CHECK(simulate_serving(in).ttft_mean < chunked.ttft_mean);
  int64_t tokens = 0;
  for (const auto& q : chunked.requests) tokens += q.output;
  CHECK(chunked.requests.size() == 600);
  CHECK(chunked.throughput_tokens_s == doctest::Approx(double(tokens) / chunked.makespan_s));
}

TEST_CASE("serve-sim refuses what cannot run") {
  ServeSimInput in = llama_on_a100(10, 1);
  in.trace[3].prompt = 9000;  // longer than the 8192-token context: rejected and counted, as vLLM does
  const auto r = simulate_serving(in);
  CHECK(r.rejected == 1);
  CHECK(r.requests.size() == 9);
  in = llama_on_a100(10, 1);
  in.model = &models::find_model("llama3-405b");
  CHECK_THROWS_WITH_AS(simulate_serving(in), doctest::Contains("do not fit"), std::invalid_argument);
  in = llama_on_a100(10, 1);
  in.sched.prefix_hit = 1;
  CHECK_THROWS_AS(simulate_serving(in), std::invalid_argument);
  in = llama_on_a100(10, 1);
  in.tp = 3;
  CHECK_THROWS_WITH_AS(simulate_serving(in), doctest::Contains("heads % tp"), std::invalid_argument);
}

TEST_CASE("a pool too small for the offered load preempts and still finishes every request") {
  ServeSimInput in = llama_on_a100(300, 1e9);  // everything arrives at once
  in.memory_fraction = 0.25;                   // ~4.7 GB of KV: far less than 256 growing sequences need
  in.sched.max_model_len = 2048;
  in.trace = synthetic_trace({.requests = 300, .rate_per_s = 1e9, .max_len = 2048});
  const auto r = simulate_serving(in);
  CHECK(r.preemptions > 0);
  CHECK(r.requests.size() == 300);
  CHECK(r.mean_kv_used <= 1.0);
  for (const auto& q : r.requests) CHECK(q.finish_s >= q.first_token_s);
}

TEST_CASE("disaggregated prefill and decode: the KV transfer, and decodes free of prefill stalls") {
  // One lone request: TTFT is its prefill (as colocated); the decode side starts after the
  // prompt's KV crossed one 400 Gb/s NIC (IB-NDR for H100, DGX H100 guide): alpha + bytes / B.
  ServeSimInput in = llama_on_a100(1, 1);
  in.device = &Catalog::builtin().device("H100-SXM");
  in.trace = {{0, 0.0, 2000, 33}};
  const auto colocated = simulate_serving(in);
  in.disagg = {1, 1, nullptr};
  const auto split = simulate_serving(in);
  const auto& ib = Catalog::builtin().link("IB-NDR");
  CHECK(split.kv_transfer_mean_s == doctest::Approx(ib.latency_s + 2000 * 131072.0 / ib.bandwidth));
  CHECK(split.requests[0].ttft() == doctest::Approx(colocated.requests[0].ttft()));
  CHECK(split.requests[0].finish_s > colocated.requests[0].finish_s);  // the transfer is on the critical path
  // Under load, decode iterations no longer wait behind whole prompts (DistServe, Zhong et al. OSDI 2024).
  in = llama_on_a100(600, 30);
  in.sched.chunked_prefill = false;
  const auto mixed = simulate_serving(in);
  in.disagg = {1, 1, nullptr};
  const auto disagg = simulate_serving(in);
  CHECK(disagg.tpot_p99 < mixed.tpot_p99);
  CHECK(disagg.requests.size() == 600);
  in.disagg = {0, 2, nullptr};
  CHECK_THROWS_WITH_AS(simulate_serving(in), doctest::Contains("prefill"), std::invalid_argument);
}
