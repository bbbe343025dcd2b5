// `simt port`: turns a plain CUDA C++ file into simtlab's dialect (docs/dialect.md)
// so the same text builds with nvcc and against the simulator. Every line keeps
// its number; constructs it cannot port are errors with file:line, never a
// silently different program.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace simt::port {

struct Issue {
  int line = 0, column = 0;
  std::string message;
};

struct PortResult {
  std::string output;            // the ported text; meaningless when errors is not empty
  std::vector<Issue> errors;     // constructs that cannot be ported
  std::vector<Issue> warnings;   // ported, but worth knowing (e.g. not bit-exact on the GPU)
  int launches = 0;              // `<<<...>>>` launches rewritten
  bool new_first_line = false;   // no room for the include: it went on a new first line, then `#line 1`
  bool ok() const { return errors.empty(); }
};

PortResult port_source(std::string_view source);

// The compiler front end's syntax step (docs/frontend.md): only what C++ cannot
// parse changes — `k<<<g, b>>>(a)` launches and `extern __shared__ T n[];` — and
// every type stays as written; clang and simtlab's pass do the rest.
PortResult syntax_source(std::string_view source);
bool needs_syntax_step(std::string_view source);

// A file needs porting when it launches with `<<<` or lacks the dialect include.
bool needs_port(std::string_view source);

// The names in `#include "..."` directives (not <...>), in order: the user's own
// headers, which `simt exec` ports along with the file.
std::vector<std::string> quoted_includes(std::string_view source);

// "file:line:col: error: message" lines, as compilers print them.
std::string format_issues(const std::string& file, const PortResult& r);

}  // namespace simt::port
