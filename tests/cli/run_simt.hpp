// Runs the real `simt` binary with a command line and returns its exit status and
// output, for the CLI tests.
#pragma once
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace simt_test {

struct Result {
  int status;
  std::string out;  // stdout, and stderr too unless left out
};

// A shell command line (run by sh, as popen runs it): its exit status and stdout.
inline Result shell(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// `env`: variable assignments for the command, e.g. "SIMT_OPTIONS=threads=2" ("" for none).
inline Result simt_env(const std::string& env, const std::string& args, bool with_stderr = true) {
  return shell((env.empty() ? "" : "env " + env + " ") + std::string(SIMT_BIN) + " " + args +
               (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

inline Result simt(const std::string& args, bool with_stderr = true) { return simt_env("", args, with_stderr); }

}  // namespace simt_test
