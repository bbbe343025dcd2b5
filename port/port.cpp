#include "port/port.hpp"

#include "port/context.hpp"
#include "port/passes.hpp"

#include <algorithm>
#include <tuple>

namespace simt::port {

PortResult port_source(std::string_view source) {
  Context c(source);
  mark_device_code(c);
  check_unsupported(c);
  rewrite_includes(c);
  rewrite_types(c);
  rewrite_dynamic_shared(c);
  rewrite_launches(c);
  rewrite_expressions(c);
  auto by_line = [](const Issue& a, const Issue& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); };
  std::stable_sort(c.result.errors.begin(), c.result.errors.end(), by_line);
  std::stable_sort(c.result.warnings.begin(), c.result.warnings.end(), by_line);
  if (c.result.errors.empty()) c.result.output = c.apply_edits();
  return std::move(c.result);
}

bool needs_port(std::string_view source) {
  Context c(source);
  bool has_dialect = false;
  for (const Token& t : c.tokens)
    if (t.kind == TokenKind::Directive && t.text.find("sim/cuda/dialect.cuh") != std::string_view::npos) has_dialect = true;
  bool has_launch = std::any_of(c.code.begin(), c.code.end(), [&](std::size_t i) { return c.tokens[i].is("<<<"); });
  return has_launch || !has_dialect;
}

std::string format_issues(const std::string& file, const PortResult& r) {
  std::string s;
  for (const Issue& e : r.errors)
    s += file + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": error: " + e.message + "\n";
  for (const Issue& w : r.warnings)
    s += file + ":" + std::to_string(w.line) + ":" + std::to_string(w.column) + ": warning: " + w.message + "\n";
  return s;
}

}  // namespace simt::port
