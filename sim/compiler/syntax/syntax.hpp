// The compiler front end's first stage (docs/frontend.md): the syntax step. Only
// what C++ cannot parse changes before clang sees a CUDA file: `k<<<g, b>>>(a)`
// launches and `extern __shared__ T n[];`. Types, includes and expressions stay
// the learner's; clang and simtlab's pass do the rest. Every line keeps its
// number; a construct it cannot rewrite is an error with file:line.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace simt::syntax {

struct Issue {
  int line = 0, column = 0;
  std::string message;
};

struct SyntaxResult {
  std::string output;            // the rewritten text; meaningless when errors is not empty
  std::vector<Issue> errors;     // constructs that cannot be rewritten
  std::vector<Issue> warnings;
  int launches = 0;              // `<<<...>>>` launches rewritten
  bool ok() const { return errors.empty(); }
};

SyntaxResult syntax_source(std::string_view source);
// Whether the file has a launch or a dynamic shared declaration to rewrite.
bool needs_syntax_step(std::string_view source);

// The names in `#include "..."` directives (not <...>), in order: the user's own
// headers, which `simt exec` passes through the syntax step with the file.
std::vector<std::string> quoted_includes(std::string_view source);

// CUDA that simtlab cannot run (inline PTX, texture and surface objects, graphs and
// stream capture, clusters and cudaLaunchKernelEx, the driver API, memory pools, a
// launch from device code): each construct once, at its first use, with what to do
// instead. Tokens only: a use inside an `#if` branch that is not compiled is found too,
// so `simt exec` asks only when clang has failed on the file (unsupported.cpp).
std::vector<Issue> unsupported_constructs(std::string_view source);

// "file:line:col: error: message" lines, as compilers print them.
std::string format_issues(const std::string& file, const SyntaxResult& r);

}  // namespace simt::syntax
