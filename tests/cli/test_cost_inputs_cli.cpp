// The cost-model commands through the real binary: an impossible input is a usage
// error (exit 2) naming the constraint; a layout that does not fit ran and failed
// its check (exit 1), said before any number (docs/cli.md, "Cost-model inputs").
#include "run_simt.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

using simt_test::simt;
using simt_test::simt_env;

namespace {
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
const std::string kTrain = "budget train --model llama3-8b --gpus 64 --device H100-SXM --zero 3 ";
}  // namespace

TEST_CASE("budget train --mfu above the model's own MFU bound: exit 2 with the bound") {
  const auto r = simt(kTrain + "--tokens 1T --mfu 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "above the MFU bound 94.1%"));
  CHECK_FALSE(has(r.out, "days"));
  CHECK(simt(kTrain + "--tokens 1T --mfu 0.4").status == 0);
}

TEST_CASE("budget train --tokens below one global batch, --global-batch not a multiple of dp x b: exit 2") {
  auto r = simt(kTrain + "--tokens 1 --mfu 0.4");
  CHECK(r.status == 2);
  CHECK(has(r.out, "less than one optimizer step"));
  r = simt(kTrain + "--tokens 1T --mfu 0.4 --global-batch 1");
  CHECK(r.status == 2);
  CHECK(has(r.out, "not a multiple of dp x micro-batch = 64 x 1 = 64"));
  r = simt(kTrain + "--tokens 1T --mfu 0.4 --global-batch 128");
  CHECK(r.status == 0);
  CHECK(has(r.out, "gradient accumulation: 2 steps"));
}

TEST_CASE("budget train: a layout that does not fit exits 1, the failure first, no days or dollars") {
  const auto r = simt("budget train --model llama3-405b --tokens 15T --gpus 1 --device H100-SXM --mfu 0.4");
  CHECK(r.status == 1);
  CHECK(r.out.find("DOES NOT FIT") < r.out.find("FLOPs"));
  CHECK_FALSE(has(r.out, " days"));
  CHECK_FALSE(has(r.out, "USD"));
  const auto j = simt("budget train --model llama3-405b --tokens 15T --gpus 1 --device H100-SXM --mfu 0.4 --json");
  CHECK(j.status == 1);
  CHECK(has(j.out, "\"fits\": false"));
  CHECK(has(j.out, "\"days\": null"));
}

TEST_CASE("serve-sim: prompts longer than --max-model-len are rejected and counted") {
  const auto r = simt("serve-sim --model llama3-8b --device H100-SXM --requests 50 --max-model-len 10 --dist fixed");
  CHECK(r.status == 0);
  CHECK(has(r.out, "REJECTED 50 of 50 requests"));
  CHECK(has(r.out, "(0 of 50 requests, the rejected ones missing)"));
  const auto j = simt("serve-sim --model llama3-8b --device H100-SXM --requests 50 --max-model-len 10 --dist fixed --json");
  CHECK(has(j.out, "\"rejected\": 50"));
}

TEST_CASE("ddp --bucket larger than the gradients: one bucket of the gradients' size, 0.0% hidden") {
  const auto r = simt("ddp --params 1e9 --backward 100ms --gpus 8 --link NVLink4 --bucket 1e30");
  CHECK(r.status == 0);
  CHECK(has(r.out, "1 x 4 GB"));
  CHECK(has(r.out, "0.0%"));
  CHECK_FALSE(has(r.out, "-0.0%"));
}

TEST_CASE("fractional and negative counts are usage errors naming the option") {
  const struct {
    const char* args;
    const char* says;
  } cases[] = {
      {"comm all-reduce --bytes 1.5 --gpus 8 --link NVLink4", "--bytes"},
      {"ddp --params 1.5 --backward 100ms --gpus 8 --link NVLink4", "--params"},
      {"zero --params 1.5 --gpus 8 --link NVLink4", "--params"},
      {"tp --seq 2048 --hidden 0.5 --tp 8 --link NVLink4", "--hidden"},
      {"moe --tokens 0.5 --hidden 4096 --top-k 2 --ep 8 --link NVLink4", "--tokens"},
      {"layer --model llama3-8b --device H100-SXM --seq 128 --layer-index -1", "--layer-index"},
      {"budget train --params 1.5 --tokens 1T --gpus 8 --device H100-SXM --mfu 0.4", "--params"},
      {"budget train --model llama3-8b --tokens 0.5 --gpus 8 --device H100-SXM --mfu 0.4", "--tokens"},
      {"tp --seq 2048 --hidden 12288 --tp 7 --link NVLink4", "hidden % tp must be 0"},
      {"tp --seq 2048 --hidden 12288 --tp 8 --heads 12 --link NVLink4", "heads % tp must be 0"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const auto r = simt(c.args);
    CHECK(r.status == 2);
    CHECK(has(r.out, c.says));
  }
}

TEST_CASE("$SIMT_CATALOG: a bad field names the device, field and constraint; a FIFO or /dev/zero is refused") {
  const std::string dir = "/tmp/simt_test_cost_inputs_" + std::to_string(getpid());
  ::mkdir(dir.c_str(), 0700);
  // The catalog with H100-SXM's warp size changed: the first occurrence is V100's, so edit the text after the name.
  std::ifstream in(std::string(SIMT_SOURCE_DIR) + "/cost/catalog/devices.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto at = text.find("\"warp_size\"", text.find("\"name\": \"H100-SXM\""));
  REQUIRE(at != std::string::npos);
  const auto value = text.find("32", at);
  text.replace(value, 2, "64");
  const std::string bad = dir + "/warp64.json";
  std::ofstream(bad) << text;
  auto r = simt_env("SIMT_CATALOG=" + bad, "devices");
  CHECK(r.status == 1);
  CHECK(has(r.out, "device 'H100-SXM'"));
  CHECK(has(r.out, "field 'warp_size': must be 32"));

  const std::string fifo = dir + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  r = simt_env("SIMT_CATALOG=" + fifo, "devices");  // would block forever on open
  CHECK(r.status == 1);
  CHECK(has(r.out, "not a regular file"));
  r = simt_env("SIMT_CATALOG=/dev/zero", "devices");  // would grow forever
  CHECK(r.status == 1);
  CHECK(has(r.out, "not a regular file"));
  ::unlink(fifo.c_str());
  std::remove(bad.c_str());
  ::rmdir(dir.c_str());
}
