// The LLM commands end to end through the simt binary: JSON keys, published
// figures reproduced, and bad input answered with a message and a non-zero exit.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace {

struct Run {
  int status = -1;
  std::string out;  // stdout and stderr together
};

Run simt(const std::string& args) {
  Run r;
  const std::string cmd = std::string(SIMT_BIN) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), int(buf.size()), p)) r.out += buf.data();
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

nlohmann::json json_of(const std::string& args) {
  const Run r = simt(args + " --json");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("simt model list/show --json") {
  const auto list = json_of("model list");
  REQUIRE(list.is_array());
  CHECK(list.size() >= 13);
  CHECK(list[0].contains("name"));
  const auto m = json_of("model show llama3-8b");
  for (const char* key : {"params", "active_params", "layers", "d_model", "heads", "kv_heads", "d_head", "ffn", "vocab"})
    CHECK_MESSAGE(m.contains(key), key);
  CHECK(m["params"] == 8030261248);
  CHECK(m["kv_heads"] == 8);
}

TEST_CASE("unknown model: near-miss suggestion, non-zero exit") {
  const Run r = simt("model show lama3-8b");
  CHECK(r.status != 0);
  CHECK(r.out.find("did you mean 'llama3-8b'") != std::string::npos);
  const Run t = simt("budget train --model gtp3-175b --tokens 1e9 --gpus 8 --device H100-SXM --mfu 0.4");
  CHECK(t.status != 0);
  CHECK(t.out.find("gpt3-175b") != std::string::npos);
}

TEST_CASE("simt layer prints a table with totals; --json has every op") {
  const Run r = simt("layer --model llama3-8b --phase train --seq 2048 --batch 1 --device H100-SXM --fused");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("flash_attention") != std::string::npos);
  CHECK(r.out.find("total") != std::string::npos);
  const auto j = json_of("layer --model gpt2-small --phase decode --seq 100 --device A100-80GB-SXM");
  CHECK(j["ops"].size() > 10);
  CHECK(j["total"]["time_s"].get<double>() > 0);
}

TEST_CASE("simt budget train --json: Megatron's 175B estimate and ZeRO's figures") {
  const auto b = json_of(
      "budget train --model gpt3-175b --tokens 300e9 --gpus 1024 --device A100-80GB-SXM "
      "--achieved-tflops 140 --recompute full --tp 8 --pp 16");
  for (const char* key : {"flops", "gpu_hours", "days", "bytes_per_gpu"}) CHECK_MESSAGE(b.contains(key), key);
  CHECK(b["days_6nd_only"].get<double>() == doctest::Approx(34).epsilon(0.02));
  const auto z = json_of("budget train --params 7.5e9 --tokens 1e9 --gpus 64 --device V100-SXM2 --dtype fp16 "
                         "--mfu 0.3 --zero 2");
  CHECK(z["bytes_per_gpu"].get<double>() / 1e9 == doctest::Approx(16.64).epsilon(0.001));
}

TEST_CASE("simt budget serve --json: Llama 3 8B KV cache is 128 KiB per token") {
  const auto s = json_of("budget serve --model llama3-8b --device H100-SXM --gpus 1 --batch 8 --context 8192");
  for (const char* key : {"weights_bytes", "kv_bytes_per_token", "max_batch", "decode_step_s", "decode_tokens_per_s"})
    CHECK_MESSAGE(s.contains(key), key);
  CHECK(s["kv_bytes_per_token"] == 131072);
}

TEST_CASE("bad sizes and batches that do not fit exit non-zero with a message") {
  const std::array<std::string, 7> bad = {
      "budget serve --model llama3-8b --device H100-SXM --batch 500 --context 8192",
      "budget serve --model llama3-8b --device H100-SXM --batch 0 --context 8192",
      "budget serve --model llama3-8b --device H100-SXM --batch 1 --context -5",
      "budget train --model gpt2-small --tokens 0 --gpus 8 --device H100-SXM --mfu 0.4",
      "budget train --model gpt2-small --tokens 1e9 --gpus -8 --device H100-SXM --mfu 0.4",
      "budget train --model gpt2-small --tokens 1e9 --gpus 8 --device H100-SXM --mfu 0.4 --bytes-per-param 17",
      "layer --model gpt2-small --phase decode --seq 0 --device H100-SXM",
  };
  for (const auto& args : bad) {
    const Run r = simt(args);
    INFO(args << "\n" << r.out);
    CHECK(r.status != 0);
    CHECK(r.out.find("error") != std::string::npos);
  }
  const Run fit = simt(bad[0]);
  CHECK(fit.out.find("largest batch that fits is 57") != std::string::npos);
}
