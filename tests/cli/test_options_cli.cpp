// The runtime options (sim/options/options.inc) through the real `simt` binary:
// the help lists the table, a bad $SIMT_OPTIONS is a usage error, flags win.
#include <doctest/doctest.h>

#include "run_simt.hpp"
#include "sim/options/options.hpp"

#include <string>

using simt_test::Result;

TEST_CASE("simt help exec lists every runtime option with its default and help line, from the table") {
  for (const char* how : {"help exec", "exec --help"}) {
    Result r = simt_test::simt(how, false);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("SIMT_OPTIONS=") != std::string::npos);
    for (const simt::OptionInfo& o : simt::option_table()) {
      INFO(o.name);
      const std::size_t at = r.out.find(std::string("  ") + o.name + "=" + o.default_text + " ");
      REQUIRE(at != std::string::npos);
      const std::size_t eol = r.out.find('\n', at);
      CHECK(r.out.substr(at, eol - at).find(o.help) != std::string::npos);
    }
  }
}

TEST_CASE("a bad SIMT_OPTIONS value is a usage error naming the option and the values it takes") {
  Result races = simt_test::simt_env("SIMT_OPTIONS=races=maybe", "run vector_add --n 64");
  CHECK(races.status == 2);
  CHECK(races.out.find("$SIMT_OPTIONS: races=maybe: races takes off, on or always") != std::string::npos);
  Result threads = simt_test::simt_env("SIMT_OPTIONS='threads=abc'", "run vector_add --n 64");
  CHECK(threads.status == 2);
  CHECK(threads.out.find("threads=abc: threads takes a whole number, 0 or more") != std::string::npos);
  Result budget = simt_test::simt_env("SIMT_OPTIONS=sample_budget=nan", "run vector_add --n 64");
  CHECK(budget.status == 2);
  CHECK(budget.out.find("sample_budget=nan: sample_budget takes a positive number of seconds") != std::string::npos);
}

TEST_CASE("simt run: its flags override SIMT_OPTIONS, which overrides the default") {
  auto device_of = [](const std::string& env, const std::string& flags) {
    Result r = simt_test::simt_env(env, "run vector_add --n 64 " + flags);
    REQUIRE(r.status == 0);
    const std::size_t at = r.out.find("(simulated ");
    REQUIRE(at != std::string::npos);
    return r.out.substr(at + 11, r.out.find(',', at) - at - 11);
  };
  CHECK(device_of("", "") == "H200");
  CHECK(device_of("SIMT_OPTIONS=device=H100-SXM", "") == "H100-SXM");
  CHECK(device_of("SIMT_OPTIONS=device=H100-SXM", "--device A100-80GB-SXM") == "A100-80GB-SXM");
}
