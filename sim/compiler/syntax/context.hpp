// The shared state of one syntax-step run: the tokens, which of them are device code,
// the edits collected so far, and the issues found. Each pass (passes.hpp) reads
// the tokens and adds edits; nothing is rewritten until all passes have run.
#pragma once
#include "sim/compiler/syntax/lexer.hpp"
#include "sim/compiler/syntax/syntax.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace simt::syntax {

struct Edit {
  std::size_t begin = 0, end = 0;  // byte range replaced (empty range: insertion)
  std::string text;
};

class Context {
 public:
  explicit Context(std::string_view source);

  std::string_view source;
  std::vector<Token> tokens;        // every token, comments and spaces included
  std::vector<std::size_t> code;    // indices of code tokens (no space, comment, directive)
  std::vector<bool> device;         // per code token: inside device code
  std::vector<bool> variable_decl;  // per code token: inside a __shared__/__device__ variable declaration
  std::vector<Edit> edits;
  SyntaxResult result;

  std::size_t size() const { return code.size(); }
  const Token& tok(std::size_t i) const { return tokens[code[i]]; }
  bool is(std::size_t i, std::string_view s) const { return i < code.size() && tok(i).text == s; }

  // Index of the bracket closing the one at i ( ( [ { ), or size() if unbalanced.
  std::size_t closing(std::size_t i) const;
  // Index of the bracket opening the one at i ( ) ] } ), or size() if unbalanced.
  std::size_t opening(std::size_t i) const;

  void replace(std::size_t i, std::string text);  // the whole code token i
  void insert_before(std::size_t i, std::string text);
  void insert_after(std::size_t i, std::string text);
  void error(const Token& t, std::string message);
  void warn(const Token& t, std::string message);

  std::string apply_edits() const;
};

}  // namespace simt::syntax
