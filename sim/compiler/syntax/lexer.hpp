// A C++ lexer for source-to-source rewriting: it splits a file into tokens whose
// text, concatenated, is the file again, byte for byte. It knows comments, string
// and character literals (raw strings included), numbers, and preprocessor lines,
// so the rewriter never mistakes `float` in a comment or `<<<` in a string for code.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace simt::syntax {

enum class TokenKind {
  Space,       // spaces, tabs, newlines, backslash-newlines
  Comment,     // // ... or /* ... */
  Directive,   // a whole preprocessor line, continuations included
  Identifier,  // keywords too
  Number,
  String,      // "..." with prefixes, raw strings
  Char,        // '...'
  Punct,       // operators and punctuation; `<<<` is one token, `>` always single
};

struct Token {
  TokenKind kind;
  std::size_t begin = 0, end = 0;  // byte offsets into the source
  int line = 0, column = 0;        // 1-based, of the first byte
  std::string_view text;
  bool is(std::string_view s) const { return text == s; }
  bool code() const { return kind != TokenKind::Space && kind != TokenKind::Comment; }
};

struct LexError {
  int line = 0, column = 0;
  const char* message = "";
};

struct Lexed {
  std::vector<Token> tokens;
  std::vector<LexError> errors;  // unterminated comments and literals
};

Lexed lex(std::string_view source);

}  // namespace simt::syntax
