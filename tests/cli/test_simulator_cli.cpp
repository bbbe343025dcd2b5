// The simulator's commands through the real `simt` binary: JSON shapes, exit
// codes, and clear messages for bad input.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "run_simt.hpp"

#include <string>

using simt_test::Result;
using simt_test::simt;

TEST_CASE("simt list --json: every kernel has a name and parameters with defaults") {
  Result r = simt("list --json", false);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  CHECK(j.size() >= 10);
  for (auto& k : j) {
    CHECK(k.contains("name"));
    REQUIRE(k["params"].is_array());
    for (auto& p : k["params"]) CHECK(!p["default"].get<std::string>().empty());
  }
}

TEST_CASE("simt run --json: one object per launch with ncu-named metrics and a check") {
  Result r = simt("run vector_add --n 5000 --block 128 --json", false);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.size() == 1);
  auto& l = j[0];
  CHECK(l["kernel"] == "vector_add");
  CHECK(l["grid"] == nlohmann::json::array({40, 1, 1}));  // ceil(5000 / 128)
  CHECK(l["block"] == nlohmann::json::array({128, 1, 1}));
  CHECK(l["dynamic_shared_bytes"] == 0);
  CHECK(l["check"]["ok"] == true);
  CHECK(l["diagnostics"].empty());
  // 5000 floats: 157 warps (the last has 8 lanes); each of a and b costs one request per warp.
  CHECK(l["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2 * 157);
  CHECK(l["metrics"]["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] == 5000);
  CHECK(l["roofline"]["bound"] == "memory");
}

TEST_CASE("simt run prints the counter table, the hottest lines and the check") {
  Result r = simt("run transpose_shared --rows 64 --cols 64");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum") != std::string::npos);
  CHECK(r.out.find("hottest lines") != std::string::npos);
  CHECK(r.out.find("transpose_shared.cu:") != std::string::npos);
  CHECK(r.out.find("roofline bound on H200") != std::string::npos);
  CHECK(r.out.find("check: OK") != std::string::npos);
}

TEST_CASE("the hottest lines never name line 0: an instruction merged from several lines reads file:?") {
  // The tiled matmul's tile stores (an if and its else) are one store after clang's
  // optimizer, with a merged location of line 0.
  Result r = simt("run matmul_tiled --m 32 --n 32 --k 32 --tile 16");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("matmul_tiled.cuh:0 ") == std::string::npos);
  if (r.out.find("matmul_tiled.cuh:?") != std::string::npos)
    CHECK(r.out.find("several lines the compiler merged into one instruction") != std::string::npos);
}

TEST_CASE("simt metrics lists the catalog") {
  Result r = simt("metrics --json", false);
  REQUIRE(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (auto& m : j) found |= m["name"] == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  CHECK(found);
}

TEST_CASE("bad input: a clear message and a non-zero exit") {
  struct Case { const char* args; const char* message; };
  for (Case c : {Case{"run vector_ad", "did you mean 'vector_add'"},
                 Case{"run vector_add --nn 5", "has no parameter --nn"},
                 Case{"run vector_add --n", "needs a value"},
                 Case{"run vector_add --n 12x", "parameter --n"},
                 Case{"run vector_add stray", "unexpected argument 'stray'"},
                 Case{"run vector_add --device H20", "did you mean"},
                 Case{"run vector_add --threads -1", ""},
                 Case{"run", "kernel is required"},
                 Case{"frobnicate", ""}}) {
    CAPTURE(c.args);
    Result r = simt(c.args);
    CHECK(r.status != 0);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(r.out.find("terminate") == std::string::npos);
  }
}

TEST_CASE("a launch the device cannot run fails with CUDA's reason") {
  Result r = simt("run vector_add --block 2048");
  CHECK(r.status == 1);
  CHECK(r.out.find("2048 threads exceeds the device limit of 1024") != std::string::npos);
  r = simt("run vector_add --n 0");
  CHECK(r.status != 0);
}
