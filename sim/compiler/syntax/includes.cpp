// The user's own headers: the names in `#include "..."` directives, which `simt cc`
// and `simt exec` pass through the syntax step with the file (cli/program_build.cpp).
#include "sim/compiler/syntax/lexer.hpp"
#include "sim/compiler/syntax/syntax.hpp"

namespace simt::syntax {

namespace {

// The header named by an #include directive, or "" for other directives.
std::string_view included_header(std::string_view d) {
  std::size_t p = d.find_first_not_of(" \t", 1);
  if (p == std::string_view::npos || d.substr(p, 7) != "include") return {};
  std::size_t open = d.find_first_of("<\"", p + 7);
  if (open == std::string_view::npos) return {};
  std::size_t close = d.find(d[open] == '<' ? '>' : '"', open + 1);
  if (close == std::string_view::npos) return {};
  return d.substr(open + 1, close - open - 1);
}

}  // namespace

std::vector<std::string> quoted_includes(std::string_view source) {
  std::vector<std::string> names;
  for (const Token& t : lex(source).tokens) {
    if (t.kind != TokenKind::Directive) continue;
    std::string_view h = included_header(t.text);
    if (!h.empty() && h.data() > t.text.data() && h.data()[-1] == '"') names.emplace_back(h);
  }
  return names;
}

}  // namespace simt::syntax
