#include "sim/compiler/syntax/context.hpp"

#include <algorithm>
#include <stdexcept>

namespace simt::syntax {

Context::Context(std::string_view src) : source(src) {
  Lexed lexed = lex(src);
  tokens = std::move(lexed.tokens);
  for (const LexError& e : lexed.errors) result.errors.push_back({e.line, e.column, e.message});
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].code() && tokens[i].kind != TokenKind::Directive) code.push_back(i);
  device.assign(code.size(), false);
  variable_decl.assign(code.size(), false);
}

namespace {
char partner(char c) {
  switch (c) {
    case '(': return ')';
    case '[': return ']';
    case '{': return '}';
    case ')': return '(';
    case ']': return '[';
    case '}': return '{';
  }
  return 0;
}
}  // namespace

std::size_t Context::closing(std::size_t i) const {
  const char open = tok(i).text[0], close = partner(open);
  int depth = 0;
  for (std::size_t j = i; j < size(); ++j) {
    const Token& t = tok(j);
    if (t.kind != TokenKind::Punct || t.text.size() != 1) continue;
    if (t.text[0] == open) ++depth;
    else if (t.text[0] == close && --depth == 0) return j;
  }
  return size();
}

std::size_t Context::opening(std::size_t i) const {
  const char close = tok(i).text[0], open = partner(close);
  int depth = 0;
  for (std::size_t j = i + 1; j-- > 0;) {
    const Token& t = tok(j);
    if (t.kind != TokenKind::Punct || t.text.size() != 1) continue;
    if (t.text[0] == close) ++depth;
    else if (t.text[0] == open && --depth == 0) return j;
  }
  return size();
}

void Context::replace(std::size_t i, std::string text) { edits.push_back({tok(i).begin, tok(i).end, std::move(text)}); }
void Context::insert_before(std::size_t i, std::string text) { edits.push_back({tok(i).begin, tok(i).begin, std::move(text)}); }
void Context::insert_after(std::size_t i, std::string text) { edits.push_back({tok(i).end, tok(i).end, std::move(text)}); }
void Context::error(const Token& t, std::string m) { result.errors.push_back({t.line, t.column, std::move(m)}); }
void Context::warn(const Token& t, std::string m) { result.warnings.push_back({t.line, t.column, std::move(m)}); }

// Edits never overlap (each pass touches its own tokens). An insertion at a
// token's start goes before that token's replacement; insertions at the same
// offset keep the order in which they were made.
std::string Context::apply_edits() const {
  std::vector<Edit> sorted = edits;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Edit& a, const Edit& b) {
    return a.begin != b.begin ? a.begin < b.begin : (a.end == a.begin) > (b.end == b.begin);
  });
  std::string out;
  out.reserve(source.size() + 256);
  std::size_t pos = 0;
  for (const Edit& e : sorted) {
    if (e.begin < pos) throw std::logic_error("simt syntax step: overlapping edits");
    out.append(source.substr(pos, e.begin - pos));
    out += e.text;
    pos = e.end;
  }
  out.append(source.substr(pos));
  return out;
}

}  // namespace simt::syntax
