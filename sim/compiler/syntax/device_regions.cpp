// Which tokens are device code. A declaration qualified __global__ or __device__
// (with or without __host__) is device code from its first specifier to the end
// of its body or its `;`; so is every __shared__ declaration. Types in those
// regions are rewritten; host code keeps its types.
#include "sim/compiler/syntax/passes.hpp"

namespace simt::syntax {

namespace {

bool is_qualifier(std::string_view s) { return s == "__global__" || s == "__device__"; }

// Specifiers that may precede __global__/__device__ in one declaration:
// `static __device__ inline float f(...)`, `template <int N> __global__ ...`.
std::size_t declaration_start(const Context& c, std::size_t i) {
  while (i > 0) {
    const Token& p = c.tok(i - 1);
    bool part = p.kind == TokenKind::Identifier || p.is("::") || p.is("*") || p.is("&");
    if (p.is(">")) {  // the end of a template header: template <...>
      int depth = 0;
      std::size_t j = i - 1;
      for (; j > 0; --j) {
        if (c.is(j, ">")) ++depth;
        else if (c.is(j, "<") && --depth == 0) break;
      }
      if (j > 0 && c.is(j - 1, "template")) {
        i = j - 1;
        continue;
      }
      return i;
    }
    if (!part) return i;
    --i;
  }
  return i;
}

// Skips `name(...)` for attribute-like macros that take parentheses.
bool is_attribute_call(std::string_view s) { return s == "__launch_bounds__" || s == "__attribute__" || s == "__align__"; }

// The last token of the declaration starting its name search at i.
std::size_t declaration_end(Context& c, std::size_t i, bool& is_variable) {
  is_variable = true;
  for (std::size_t j = i; j < c.size(); ++j) {
    const Token& t = c.tok(j);
    if (t.is("(") && j > 0 && is_attribute_call(c.tok(j - 1).text)) {
      j = c.closing(j);
      continue;
    }
    if (t.is(";")) return j;
    if (t.is("=") || t.is("[")) break;  // a variable: ends at its `;`
    if (t.is("(")) {
      is_variable = false;
      std::size_t close = c.closing(j);
      for (std::size_t k = close + 1; k < c.size(); ++k) {
        if (c.is(k, "(")) k = c.closing(k);
        else if (c.is(k, ";")) return k;
        else if (c.is(k, "{")) return c.closing(k);
      }
      return c.size() - 1;
    }
  }
  for (std::size_t j = i; j < c.size(); ++j) {
    if (c.is(j, "(") || c.is(j, "[") || c.is(j, "{")) j = c.closing(j);
    else if (c.is(j, ";")) return j;
  }
  return c.size() - 1;
}

void mark(Context& c, std::size_t from, std::size_t to, bool variable) {
  for (std::size_t k = from; k <= to && k < c.size(); ++k) {
    c.device[k] = true;
    if (variable) c.variable_decl[k] = true;
  }
}

}  // namespace

void mark_device_code(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Token& t = c.tok(i);
    if (t.kind != TokenKind::Identifier) continue;
    if (is_qualifier(t.text) && !c.device[i] && !lambda_qualifier(c, i)) {
      bool variable = false;
      std::size_t end = declaration_end(c, i + 1, variable);
      mark(c, declaration_start(c, i), end, variable);
      // The simulator's device memory is what cudaMalloc returns; a global
      // __device__ variable would be host memory to it (and needs cudaMemcpyToSymbol).
      if (variable)
        c.error(t, "__device__ variables are not supported by the simulator; cudaMalloc the data and pass a pointer");
    } else if (t.is("__shared__")) {
      bool variable = false;
      std::size_t end = declaration_end(c, i + 1, variable);
      mark(c, declaration_start(c, i), end, true);
    }
  }
}

}  // namespace simt::syntax
