// The compiler front end's syntax step (syntax.hpp): device regions marked, then the
// dynamic-shared, launch and extended-lambda rewrites. Types, includes and expressions stay the learner's.
#include "sim/compiler/syntax/context.hpp"
#include "sim/compiler/syntax/passes.hpp"
#include "sim/compiler/syntax/syntax.hpp"

#include <algorithm>

namespace simt::syntax {

SyntaxResult syntax_source(std::string_view source) {
  Context c(source);
  mark_device_code(c);
  c.result.errors.clear();  // about device variables: clang and the pass judge those
  rewrite_dynamic_shared(c);
  rewrite_launches(c);
  rewrite_extended_lambdas(c);
  if (c.result.errors.empty()) c.result.output = c.apply_edits();
  return std::move(c.result);
}

bool needs_syntax_step(std::string_view source) {
  Context c(source);
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c.is(i, "<<<") || (c.is(i, "extern") && c.is(i + 1, "__shared__")) || lambda_qualifier(c, i)) return true;
  return false;
}

std::string format_issues(const std::string& file, const SyntaxResult& r) {
  std::string s;
  for (const Issue& e : r.errors)
    s += file + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: " + e.message + "\n";
  for (const Issue& w : r.warnings)
    s += file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": warning: " + w.message + "\n";
  return s;
}

}  // namespace simt::syntax
