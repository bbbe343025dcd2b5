// Scalar types the simulator must see (docs/dialect.md, "Types"). In device code:
//  - float -> f32 and double -> f64 everywhere, so every FP operation is counted;
//  - integer types -> i32/u32/i64/u64 where they are the pointee of a pointer or
//    the element of a __shared__ or __device__ variable, because those values
//    live in device memory and their accesses must be observed. Integer locals
//    stay plain: they live in registers on the GPU and cost nothing to count.
#include "port/passes.hpp"

#include <string>
#include <vector>

namespace simt::port {

namespace {

bool is_int_word(std::string_view s) {
  return s == "int" || s == "unsigned" || s == "signed" || s == "long" || s == "short" || s == "char";
}
bool is_cv(std::string_view s) { return s == "const" || s == "volatile"; }

// numeric_limits<float> must stay: numeric_limits<f32> is the unspecialised template.
bool inside_numeric_limits(const Context& c, std::size_t i) {
  return i >= 2 && c.is(i - 1, "<") && c.is(i - 2, "numeric_limits");
}

void rewrite_float(Context& c, std::size_t i) {
  if (inside_numeric_limits(c, i)) return;
  if (i > 0 && c.is(i - 1, "long")) {
    c.warn(c.tok(i), "long double in device code is not instrumented (the GPU has no long double either)");
    return;
  }
  c.replace(i, c.tok(i).is("float") ? "f32" : "f64");
}

// An integer type written as a run of keywords (`unsigned long long int`), maybe
// with const/volatile mixed in. Returns the index after the run.
std::size_t rewrite_integer_run(Context& c, std::size_t i) {
  std::size_t j = i;
  bool is_unsigned = false, has_long = false, small = false;
  std::vector<std::size_t> words;
  for (; j < c.size() && (is_int_word(c.tok(j).text) || is_cv(c.tok(j).text)); ++j) {
    std::string_view w = c.tok(j).text;
    if (is_cv(w)) continue;
    words.push_back(j);
    is_unsigned |= w == "unsigned";
    has_long |= w == "long";
    small |= w == "short" || w == "char";
  }
  if (words.empty() || inside_numeric_limits(c, i)) return j;
  bool pointee = c.is(j, "*");
  bool declared = c.variable_decl[i] && j < c.size() && c.tok(j).kind == TokenKind::Identifier;
  if (!pointee && !declared) return j;
  if (small) {
    c.warn(c.tok(i), "char/short data in device memory is not instrumented: its accesses are not counted");
    return j;
  }
  // LP64: long and long long are both 64-bit on the host and on the GPU.
  std::string type = std::string(is_unsigned ? "u" : "i") + (has_long ? "64" : "32");
  c.replace(words.front(), type);
  // The other words go, with the space before them: `unsigned int*` -> `u32*`.
  for (std::size_t k = 1; k < words.size(); ++k) c.edits.push_back({c.tok(words[k] - 1).end, c.tok(words[k]).end, ""});
  return j;
}

}  // namespace

void rewrite_types(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!c.device[i] || c.tok(i).kind != TokenKind::Identifier) continue;
    const Token& t = c.tok(i);
    if (t.is("float") || t.is("double")) {
      rewrite_float(c, i);
    } else if (is_int_word(t.text)) {
      i = rewrite_integer_run(c, i) - 1;
    }
  }
}

}  // namespace simt::port
