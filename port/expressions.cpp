// Expression-level rewrites in device code:
//  - the operands of `c ? a : b` are wrapped in simt::val(), because an f32 and a
//    float (say `i < n ? x[i] : 0.0f`) convert to each other and C++ rejects the
//    conditional as ambiguous; val() yields the plain value on both sides;
//  - expf, logf, tanhf, erff, rsqrtf, __expf, __fdividef become simtlab's
//    portable versions (sim/cuda/portable_math.hpp), bit-identical on GPU and CPU;
//  - __ldg(p) becomes (*(p)): same value, same global load (nvcc loses the
//    read-only-cache hint, which changes no counter simtlab reports);
//  - max(a, b) and min(a, b) become simt::max/min: CUDA's device overloads,
//    which the simulator build lacks (sim/cuda/port_support.hpp).
#include "port/passes.hpp"

#include <map>
#include <set>
#include <string>

namespace simt::port {

namespace {

bool opens(const Context& c, std::size_t j) { return c.is(j, "(") || c.is(j, "[") || c.is(j, "{"); }
bool closes(const Context& c, std::size_t j) { return c.is(j, ")") || c.is(j, "]") || c.is(j, "}"); }

// The `:` of the conditional whose `?` is at i.
std::size_t colon_of(const Context& c, std::size_t i) {
  int nested = 0;
  for (std::size_t j = i + 1; j < c.size(); ++j) {
    if (opens(c, j)) j = c.closing(j);
    else if (closes(c, j) || c.is(j, ";")) break;
    else if (c.is(j, "?")) ++nested;
    else if (c.is(j, ":") && nested-- == 0) return j;
  }
  return c.size();
}

// One past the last token of the third operand, which starts after `:` at i.
std::size_t third_operand_end(const Context& c, std::size_t i) {
  int nested = 0;
  std::size_t j = i + 1;
  for (; j < c.size(); ++j) {
    if (opens(c, j)) j = c.closing(j);
    else if (closes(c, j) || c.is(j, ";") || c.is(j, ",")) break;
    else if (c.is(j, "?")) ++nested;
    else if (c.is(j, ":") && nested-- == 0) break;
  }
  return j;
}

void wrap(Context& c, std::size_t first, std::size_t last) {
  c.insert_before(first, "simt::val(");
  c.insert_after(last, ")");
}

void rewrite_conditional(Context& c, std::size_t i) {
  std::size_t colon = colon_of(c, i);
  if (colon >= c.size() || colon == i + 1) return;  // not a conditional, or GNU `a ?: b`
  std::size_t end = third_operand_end(c, colon);
  if (end == colon + 1 || end > c.size()) return;
  wrap(c, i + 1, colon - 1);
  wrap(c, colon + 1, end - 1);
}

const std::map<std::string_view, std::string_view>& portable_math() {
  static const std::map<std::string_view, std::string_view> m = {
      {"expf", "simt::expf"},   {"logf", "simt::logf"},     {"tanhf", "simt::tanhf"},         {"erff", "simt::erff"},
      {"rsqrtf", "simt::rsqrtf"}, {"__expf", "simt::__expf"}, {"__fdividef", "simt::__fdividef"},
      {"max", "simt::max"},     {"min", "simt::min"}};
  return m;
}

// Math the simulator computes with the host C library: correct, but possibly a
// different last bit than the GPU's implementation.
const std::set<std::string_view>& host_math() {
  static const std::set<std::string_view> s = {
      "exp",  "log",   "tanh",  "erf",    "rsqrt", "sinf",  "cosf",  "tanf",   "sin",    "cos",     "tan",
      "powf", "pow",   "exp2f", "log2f",  "log10f", "expm1f", "log1pf", "sinhf", "coshf", "asinf",  "acosf",
      "atanf", "atan2f", "cbrtf", "erfcf", "erfinvf", "__logf", "__sinf", "__cosf", "__powf", "__tanf", "sincosf",
      "exp10f", "__exp10f", "normcdff", "lgammaf", "tgammaf"};
  return s;
}

// A call, not a member, not qualified, and not a declaration of a function of
// that name (`__device__ float max(float a, float b)`: a type name precedes it).
bool plain_call(const Context& c, std::size_t i) {
  if (!c.is(i + 1, "(")) return false;
  if (i == 0) return true;
  const Token& prev = c.tok(i - 1);
  bool qualified = prev.is("::") || prev.is(".") || prev.is("->");
  bool declared = prev.kind == TokenKind::Identifier && !prev.is("return") && !prev.is("case") && !prev.is("else");
  return !qualified && !declared;
}

void rewrite_call(Context& c, std::size_t i) {
  const Token& t = c.tok(i);
  if (!plain_call(c, i)) return;
  if (auto it = portable_math().find(t.text); it != portable_math().end()) {
    c.replace(i, std::string(it->second));
  } else if (host_math().contains(t.text)) {
    c.warn(t, std::string(t.text) +
                  " runs on the host C library in the simulator build: the result may differ from the GPU's "
                  "in the last bits (portable, bit-exact: expf logf tanhf erff rsqrtf __expf __fdividef)");
  } else if (t.is("__ldg")) {
    std::size_t close = c.closing(i + 1);
    if (close >= c.size()) return;
    c.replace(i, "(*");
    c.insert_after(close, ")");
  }
}

}  // namespace

void rewrite_expressions(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!c.device[i]) continue;
    if (c.is(i, "?")) rewrite_conditional(c, i);
    else if (c.tok(i).kind == TokenKind::Identifier) rewrite_call(c, i);
  }
}

}  // namespace simt::port
