#include "sim/compiler/syntax/lexer.hpp"

#include <array>
#include <cctype>
#include <string>

namespace simt::syntax {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Longest-match punctuators. `>>` and `>>=` are deliberately absent: a `>` is
// always its own token so that `>>>` (launch) and `>>` (templates) are both
// sequences of single `>` the rewriter can count.
constexpr std::array<std::string_view, 27> kPuncts = {
    "<<<", "<=>", "<<=", "...", "->*", "::", "->", "<<", "<=", ">=", "==", "!=", "&&", "||",
    "++",  "--",  "+=",  "-=",  "*=",  "/=", "%=", "&=", "|=", "^=", ".*", "##", "#"};

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Lexed run() {
    while (pos_ < s_.size()) next();
    return std::move(out_);
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  int line_ = 1, col_ = 1;
  bool line_start_ = true;  // only whitespace/comments so far on this line
  Lexed out_;

  char at(std::size_t i) const { return i < s_.size() ? s_[i] : '\0'; }

  void advance_to(std::size_t end) {
    for (; pos_ < end; ++pos_) {
      if (s_[pos_] == '\n') {
        ++line_;
        col_ = 1;
      } else {
        ++col_;
      }
    }
  }

  void emit(TokenKind k, std::size_t end) {
    Token t{k, pos_, end, line_, col_, s_.substr(pos_, end - pos_)};
    bool had_newline = t.text.find('\n') != std::string_view::npos;
    advance_to(end);
    if (k == TokenKind::Directive) line_start_ = true;
    else if (k == TokenKind::Space || k == TokenKind::Comment) line_start_ = line_start_ || had_newline;
    else line_start_ = false;
    out_.tokens.push_back(t);
  }

  void error(const char* msg) { out_.errors.push_back({line_, col_, msg}); }

  void next() {
    char c = s_[pos_];
    if (c == '\\' && at(pos_ + 1) == '\n') return emit(TokenKind::Space, pos_ + 2);
    if (std::isspace(static_cast<unsigned char>(c))) {
      std::size_t e = pos_;
      while (e < s_.size() && std::isspace(static_cast<unsigned char>(s_[e]))) ++e;
      return emit(TokenKind::Space, e);
    }
    if (c == '/' && at(pos_ + 1) == '/') return emit(TokenKind::Comment, line_comment_end(pos_));
    if (c == '/' && at(pos_ + 1) == '*') return block_comment();
    if (c == '#' && line_start_) return emit(TokenKind::Directive, directive_end());
    if (auto e = raw_string_end(); e) return emit(TokenKind::String, e);
    if (auto e = quoted_end(); e) return emit(s_[e - 1] == '\'' ? TokenKind::Char : TokenKind::String, e);
    if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(at(pos_ + 1)))))
      return emit(TokenKind::Number, number_end());
    if (ident_start(c)) {
      std::size_t e = pos_;
      while (e < s_.size() && ident_char(s_[e])) ++e;
      return emit(TokenKind::Identifier, e);
    }
    for (std::string_view p : kPuncts)
      if (s_.substr(pos_, p.size()) == p) return emit(TokenKind::Punct, pos_ + p.size());
    emit(TokenKind::Punct, pos_ + 1);
  }

  // A // comment ends at a newline not preceded by a backslash.
  std::size_t line_comment_end(std::size_t e) const {
    while (e < s_.size() && !(s_[e] == '\n' && (e == 0 || s_[e - 1] != '\\'))) ++e;
    return e;
  }

  void block_comment() {
    std::size_t e = s_.find("*/", pos_ + 2);
    if (e == std::string_view::npos) {
      error("unterminated /* comment");
      return emit(TokenKind::Comment, s_.size());
    }
    emit(TokenKind::Comment, e + 2);
  }

  // A directive runs to the end of its line; backslash-newline continues it, and a
  // /* comment */ inside it may span lines.
  std::size_t directive_end() const {
    std::size_t e = pos_;
    while (e < s_.size()) {
      if (s_[e] == '\\' && at(e + 1) == '\n') {
        e += 2;
      } else if (s_[e] == '/' && at(e + 1) == '*') {
        std::size_t c = s_.find("*/", e + 2);
        e = c == std::string_view::npos ? s_.size() : c + 2;
      } else if (s_[e] == '/' && at(e + 1) == '/') {
        return line_comment_end(e);
      } else if (s_[e] == '\n') {
        return e;
      } else if (s_[e] == '"' || s_[e] == '\'') {
        e = skip_quoted(e);
      } else {
        ++e;
      }
    }
    return e;
  }

  std::size_t skip_quoted(std::size_t e) const {
    char q = s_[e++];
    while (e < s_.size() && s_[e] != q && s_[e] != '\n') e += (s_[e] == '\\') ? 2 : 1;
    return std::min(e + 1, s_.size());
  }

  // Encoding prefixes: u8, u, U, L (any of them may precede a quote).
  std::size_t prefix_length() const {
    for (std::string_view p : {"u8", "u", "U", "L"})
      if (s_.substr(pos_, p.size()) == p) return p.size();
    return 0;
  }

  std::size_t raw_string_end() {
    std::size_t p = pos_ + prefix_length();
    if (at(p) != 'R' || at(p + 1) != '"') return 0;
    std::size_t open = s_.find('(', p + 2);
    if (open == std::string_view::npos) return 0;
    std::string close = ")" + std::string(s_.substr(p + 2, open - p - 2)) + "\"";
    std::size_t e = s_.find(close, open + 1);
    if (e == std::string_view::npos) {
      error("unterminated raw string literal");
      return s_.size();
    }
    return e + close.size();
  }

  std::size_t quoted_end() {
    std::size_t p = pos_ + prefix_length();
    char q = at(p);
    if (q != '"' && q != '\'') return 0;
    // `'` after a digit is a digit separator, handled in number_end.
    std::size_t e = p + 1;
    while (e < s_.size() && s_[e] != q) {
      if (s_[e] == '\n') {
        error(q == '"' ? "unterminated string literal" : "unterminated character literal");
        return e;
      }
      e += (s_[e] == '\\') ? 2 : 1;
    }
    return std::min(e + 1, s_.size());
  }

  // pp-number: digits, letters, '.', digit separators, and signs after an exponent.
  std::size_t number_end() const {
    std::size_t e = pos_ + 1;
    while (e < s_.size()) {
      char c = s_[e];
      char prev = s_[e - 1];
      bool sign_after_exp = (c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P');
      bool separator = c == '\'' && ident_char(at(e + 1));
      if (ident_char(c) || c == '.' || sign_after_exp || separator) ++e;
      else break;
    }
    return e;
  }
};

}  // namespace

Lexed lex(std::string_view source) { return Lexer(source).run(); }

}  // namespace simt::syntax
