#include "sim/compiler/syntax/lexer.hpp"

#include <doctest/doctest.h>

#include <string>

using simt::syntax::lex;
using simt::syntax::TokenKind;

namespace {
std::string joined(const simt::syntax::Lexed& l) {
  std::string s;
  for (auto& t : l.tokens) s += t.text;
  return s;
}
}  // namespace

TEST_CASE("lexer: tokens concatenate back to the source, byte for byte") {
  std::string src = "#include <x.h>\n/* a\n b */ int main() { return u8\"s\\\"\" + R\"d(<<<)\")d\"[0] + '\\'' + 1'000; } // end\n";
  auto l = lex(src);
  CHECK(l.errors.empty());
  CHECK(joined(l) == src);
}

TEST_CASE("lexer: comments, strings and raw strings hide code-like text") {
  auto l = lex("a /* float <<< */ \"float<<<\" R\"x(float)x\" // float\n");
  int idents = 0;
  for (auto& t : l.tokens) idents += t.kind == TokenKind::Identifier;
  CHECK(idents == 1);
}

TEST_CASE("lexer: <<< is one token, > is always single") {
  auto l = lex("k<<<g, b>>>(x); std::vector<std::vector<int>> v; a >= b; p->q;");
  int launches = 0, gts = 0;
  for (auto& t : l.tokens) {
    launches += t.is("<<<");
    gts += t.is(">");
  }
  CHECK(launches == 1);
  CHECK(gts == 5);
}

TEST_CASE("lexer: directives are whole lines, continuations included") {
  auto l = lex("#define F(x) \\\n  (x + 1)\nint y;\n  # pragma once\n");
  CHECK(l.tokens[0].kind == TokenKind::Directive);
  CHECK(l.tokens[0].text == "#define F(x) \\\n  (x + 1)");
  int directives = 0;
  for (auto& t : l.tokens) directives += t.kind == TokenKind::Directive;
  CHECK(directives == 2);
}

TEST_CASE("lexer: line and column of tokens") {
  auto l = lex("a\n  bb");
  CHECK(l.tokens.back().line == 2);
  CHECK(l.tokens.back().column == 3);
}

TEST_CASE("lexer: unterminated comment and string are reported") {
  CHECK(lex("/* open").errors.size() == 1);
  CHECK(lex("\"open\nint x;").errors.size() == 1);
}
