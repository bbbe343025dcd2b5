// "Nothing a learner types lies": the cost library refuses impossible inputs
// with std::invalid_argument naming the constraint, instead of printing a result.
#include "cost/catalog/catalog.hpp"
#include "cost/serve/serve_sim.hpp"
#include "cost/train/budget_train.hpp"
#include "cost/train/ddp.hpp"
#include "cost/train/moe_comm.hpp"
#include "cost/train/tp_comm.hpp"
#include "cost/train/zero_comm.hpp"
#include "models/layer_ops.hpp"
#include "models/zoo.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using namespace simt;
using namespace simt::cost;

namespace {

TrainBudgetInput llama8b_on_64(double mfu) {
  TrainBudgetInput in;
  in.model = &models::find_model("llama3-8b");
  in.tokens = 1e12;
  in.gpus = 64;
  in.device = &Catalog::builtin().device("H100-SXM");
  in.util_kind = UtilizationKind::Mfu;
  in.util = mfu;
  in.flash_attention = true;
  in.layout = {.tp = 1, .pp = 1, .dp = 1, .zero_stage = 3};
  return in;
}

std::string what_of(const auto& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("budget train: an MFU above the roofline step's bound is refused, the bound named") {
  const auto b = train_budget(llama8b_on_64(0.4));
  REQUIRE(b.step);
  const double bound = b.step->roofline_mfu;
  CHECK(bound < 1);
  const std::string msg = what_of([] { train_budget(llama8b_on_64(1.0)); });
  CHECK(has(msg, "MFU 1 is above the MFU bound"));
  CHECK(has(msg, "must be <= the bound"));
  CHECK_NOTHROW(train_budget(llama8b_on_64(bound * 0.999)));
  // HFU and measured FLOP/s have the same bound on the hardware basis.
  auto hfu = llama8b_on_64(0.999);
  hfu.util_kind = UtilizationKind::Hfu;
  CHECK(has(what_of([&] { train_budget(hfu); }), "HFU bound"));
}

TEST_CASE("budget train: tokens of at least one global batch; the global batch a multiple of dp x micro-batch") {
  auto in = llama8b_on_64(0.4);
  in.tokens = 1;
  CHECK(has(what_of([&] { train_budget(in); }), "less than one optimizer step"));
  in.tokens = 64.0 * 8192;  // exactly one pass of 64 ranks x 1 sequence of 8192 tokens
  CHECK_NOTHROW(train_budget(in));
  in.tokens = 0.5e12 + 0.5;
  CHECK(has(what_of([&] { train_budget(in); }), "whole number"));

  in = llama8b_on_64(0.4);
  in.global_batch = 1;
  CHECK(has(what_of([&] { train_budget(in); }), "not a multiple of dp x micro-batch = 64 x 1 = 64"));
  in.global_batch = 100;
  CHECK(has(what_of([&] { train_budget(in); }), "use 64 or 128"));
  in.global_batch = 128;
  const auto b = train_budget(in);
  CHECK(b.grad_accumulation == 2);
  in.global_batch = 1 << 20;
  in.tokens = 1e9;  // fewer than one global batch of 2^20 x 8192 tokens
  CHECK(has(what_of([&] { train_budget(in); }), "at least one global batch"));
}

TEST_CASE("budget train: a layout that does not fit says so first and gives no time or cost") {
  auto in = llama8b_on_64(0.4);
  in.model = &models::find_model("llama3-405b");
  in.gpus = 1;
  in.layout.zero_stage = 0;
  in.tokens = 15e12;
  const auto b = train_budget(in);
  CHECK_FALSE(b.fits);
  const std::string text = to_text(b, false);
  CHECK(text.find("DOES NOT FIT") < text.find("FLOPs"));
  CHECK_FALSE(has(text, "days"));
  CHECK_FALSE(has(text, "USD"));
  const auto j = to_json(b);
  CHECK(j["fits"] == false);
  CHECK(j["days"].is_null());
  CHECK(j["cost_usd"].is_null());
}

TEST_CASE("ddp: a bucket larger than the gradients is one bucket, hidden exactly 0, never -0.0") {
  const LinkSpec& link = Catalog::builtin().link("NVLink4");
  for (double params : {1e9, 1.3e9, 7e9, 123456789.0, 3e8}) {
    for (double backward : {0.1, 0.0123, 1.0}) {
      DdpInput in;
      in.params = params;
      in.backward_s = backward;
      in.bucket_bytes = 1e30;
      in.gpus = 8;
      const auto r = ddp_overlap(in, link);
      CHECK(r.buckets.size() == 1);
      CHECK(r.in.bucket_bytes == r.grad_bytes);
      CHECK(r.hidden_fraction == 0.0);
      CHECK_FALSE(std::signbit(r.hidden_fraction));
    }
  }
  DdpInput in;
  in.params = 7e9;
  in.backward_s = 1;
  in.gpus = 8;
  const auto r = ddp_overlap(in, link);
  CHECK(r.hidden_fraction > 0);
  CHECK(r.hidden_fraction <= 1);
  in.params = 1.5;
  CHECK(has(what_of([&] { ddp_overlap(in, link); }), "whole number"));
}

TEST_CASE("tp, moe, zero: fractional sizes and a tp that does not divide hidden or heads are refused") {
  const LinkSpec& link = Catalog::builtin().link("NVLink4");
  TpCommInput tp;
  tp.seq = 2048;
  tp.hidden = 12288;
  tp.tp = 7;
  CHECK(has(what_of([&] { tp_comm(tp, link); }), "hidden % tp must be 0"));
  tp.tp = 8;
  CHECK_NOTHROW(tp_comm(tp, link));
  tp.heads = 12;
  CHECK(has(what_of([&] { tp_comm(tp, link); }), "heads % tp must be 0"));
  tp.heads = 96;
  tp.hidden = 0.5;
  CHECK(has(what_of([&] { tp_comm(tp, link); }), "whole numbers"));

  MoeCommInput moe;
  moe.tokens = 0.5;
  moe.hidden = 4096;
  moe.top_k = 2;
  moe.ep = 8;
  CHECK(has(what_of([&] { moe_comm(moe, link); }), "whole numbers"));

  ZeroCommInput z;
  z.params = 1.5;
  z.gpus = 8;
  CHECK(has(what_of([&] { zero_comm(z, link); }), "whole number"));
}

TEST_CASE("layer: a negative layer index other than the default -1 is refused") {
  const auto& m = models::find_model("llama3-8b");
  models::LayerShape s;
  s.layer_index = -2;
  CHECK(has(what_of([&] { models::layer_ops(m, s); }), "negative"));
}

TEST_CASE("serve-sim: prompts longer than max_model_len are rejected and counted, as vLLM does") {
  ServeSimInput in;
  in.model = &models::find_model("llama3-8b");
  in.device = &Catalog::builtin().device("H100-SXM");
  in.trace = synthetic_trace({.requests = 50, .rate_per_s = 10, .prompt_mean = 512, .output_mean = 256,
                              .dist = LengthDist::Fixed});
  in.sched.max_model_len = 10;
  const auto r = simulate_serving(in);
  CHECK(r.rejected == 50);
  CHECK(r.requests.empty());
  CHECK(r.goodput_requests_s == 0);
  CHECK(r.good_requests == 0);
  CHECK(has(to_text(r), "REJECTED 50 of 50 requests"));
  CHECK(to_json(r, false)["rejected"] == 50);

  // Room for the prompt but not the whole output: served, stopped at max_model_len.
  in.sched.max_model_len = 600;
  const auto capped = simulate_serving(in);
  CHECK(capped.rejected == 0);
  CHECK(capped.capped == 50);
  CHECK(capped.requests.size() == 50);
  for (const auto& q : capped.requests) CHECK(q.prompt + q.output <= 600);

  // A CSV-like trace: one fits, one is too long.
  in.trace = {{0, 0.0, 100, 10}, {1, 0.1, 700, 10}};
  const auto mixed = simulate_serving(in);
  CHECK(mixed.rejected == 1);
  CHECK(mixed.requests.size() == 1);
  CHECK(has(to_text(mixed), "REJECTED 1 of 2 requests"));
}

namespace {

nlohmann::json builtin_catalog_json() {
  std::ifstream f(Catalog::builtin_path());
  std::stringstream s;
  s << f.rdbuf();
  return nlohmann::json::parse(s.str());
}

std::string parse_error(const nlohmann::json& j) {
  try {
    Catalog::parse(j.dump(), "test.json");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(parsed)";
}

nlohmann::json& h100(nlohmann::json& j) {
  for (auto& d : j["devices"])
    if (d["name"] == "H100-SXM") return d;
  FAIL("no H100-SXM in the catalog");
  return j;
}

}  // namespace

TEST_CASE("catalog: every field in range, relations between fields, named with the device") {
  const auto base = builtin_catalog_json();
  CHECK(parse_error(base) == "(parsed)");  // every real device passes
  struct Case { const char* field; double value; const char* says; };
  const Case cases[] = {
      {"memory_bandwidth_gbs", 1e308, "must be finite"},
      {"memory_bandwidth_gbs", 1e-300, "must be from 1 to 100000 GB/s"},
      {"warp_size", 7, "must be 32"},
      {"warp_size", 64, "must be 32"},
      {"shared_per_block_kib", 1e12, "must be from 1 to 4096 KiB"},
      {"shared_per_sm_kib", 32, "must be at least shared_per_block_kib"},
      {"memory_gib", 1e9, "must be from 0.25 to 4096 GiB"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.field);
    CAPTURE(c.value);
    auto j = base;
    h100(j)[c.field]["value"] = c.value;
    const std::string msg = parse_error(j);
    CHECK(has(msg, "device 'H100-SXM'"));
    CHECK(has(msg, std::string("field '") + c.field + "'"));
    CHECK(has(msg, c.says));
  }
  auto j = base;
  h100(j)["name"] = "";
  CHECK(has(parse_error(j), "field 'name': must not be empty"));
  j = base;
  h100(j)["compute_capability"] = "abc";
  CHECK(has(parse_error(j), "field 'compute_capability': must be MAJOR.MINOR"));
  j = base;
  j["links"][0]["bandwidth_gbs"]["value"] = 1e-300;
  CHECK(has(parse_error(j), "field 'bandwidth_gbs': must be from"));
}

TEST_CASE("catalog: only a regular file of at most 16 MiB is read (no FIFO, no /dev/zero)") {
  const std::string fifo = "/tmp/simt_test_catalog_fifo_" + std::to_string(getpid());
  ::unlink(fifo.c_str());
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto load_error = [](const std::string& path) {
    try {
      Catalog::load(path);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  CHECK(has(load_error(fifo), "not a regular file"));  // returns at once, never blocks on open
  ::unlink(fifo.c_str());
  CHECK(has(load_error("/dev/zero"), "not a regular file"));
  CHECK(has(load_error("/tmp"), "not a regular file"));
  const std::string big = "/tmp/simt_test_catalog_big_" + std::to_string(getpid());
  {
    std::ofstream f(big);
    f.seekp((16 << 20) + 10);
    f << ' ';
  }
  CHECK(has(load_error(big), "more than the 16 MiB"));
  std::remove(big.c_str());
}
