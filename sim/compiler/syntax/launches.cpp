// `kernel<<<grid, block[, shmem[, stream]]>>>(args)` becomes
// `simt::launch(SIMT_KERNEL(kernel), grid, block[, shmem[, stream]])(args)`. Only the tokens
// `<<<` and `>>>` change and `simt::launch(SIMT_KERNEL(` is inserted, so the arguments keep
// their text and their lines.
#include "sim/compiler/syntax/passes.hpp"

namespace simt::syntax {

namespace {

// Start of the callee before `<<<`: `name`, `ns::name`, `name<T, 4>`, `(expr)`.
std::size_t callee_start(const Context& c, std::size_t i) {
  if (i == 0) return c.size();
  std::size_t j = i - 1;
  if (c.is(j, ")") || c.is(j, "]")) return c.opening(j);
  if (c.is(j, ">")) {  // template arguments: match back to their `<`
    int depth = 0;
    for (;; --j) {
      if (c.is(j, ">")) ++depth;
      else if (c.is(j, "<") && --depth == 0) break;
      else if (c.is(j, ")")) j = c.opening(j);
      if (j == 0) return c.size();
    }
    if (j == 0) return c.size();
    --j;
  }
  if (c.tok(j).kind != TokenKind::Identifier) return c.size();
  while (j >= 2 && c.is(j - 1, "::") && c.tok(j - 2).kind == TokenKind::Identifier) j -= 2;
  if (j >= 1 && c.is(j - 1, "::")) --j;
  return j;
}

// `NULL` (an integer to C++) as a launch argument becomes `nullptr`: the call in
// SIMT_KERNEL passes stored copies, and a stored integer 0 is no null pointer.
void null_arguments_to_nullptr(Context& c, std::size_t open) {
  const std::size_t close = c.closing(open);
  for (std::size_t j = open + 1; j < close && j < c.size(); ++j) {
    if (c.is(j, "(") || c.is(j, "[") || c.is(j, "{")) {
      j = c.closing(j);
      continue;
    }
    const bool whole = (c.is(j - 1, "(") || c.is(j - 1, ",")) && (c.is(j + 1, ")") || c.is(j + 1, ","));
    if (c.is(j, "NULL") && whole) c.replace(j, "nullptr");
  }
}

bool adjacent(const Context& c, std::size_t a) { return c.tok(a).end == c.tok(a + 1).begin; }

// The first of three adjacent `>` closing the configuration opened at i.
std::size_t config_end(const Context& c, std::size_t i) {
  for (std::size_t j = i + 1; j + 2 < c.size(); ++j) {
    if (c.is(j, "(") || c.is(j, "[") || c.is(j, "{")) {
      j = c.closing(j);
      continue;
    }
    if (c.is(j, ";")) break;
    if (c.is(j, ">") && c.is(j + 1, ">") && c.is(j + 2, ">") && adjacent(c, j) && adjacent(c, j + 1)) return j;
  }
  return c.size();
}

}  // namespace

void rewrite_launches(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (!c.is(i, "<<<") || c.device[i]) continue;
    std::size_t start = callee_start(c, i);
    std::size_t close = config_end(c, i);
    if (start >= c.size() || close >= c.size() || !c.is(close + 3, "(")) {
      c.error(c.tok(i), "cannot parse this launch; expected `kernel<<<grid, block[, shmem[, stream]]>>>(args)`");
      continue;
    }
    // C++ resolves the callee from the call (sim/cuda/launch.hpp, SIMT_KERNEL).
    c.insert_before(start, "simt::launch(SIMT_KERNEL(");
    c.replace(i, "), ");
    null_arguments_to_nullptr(c, close + 3);
    c.edits.push_back({c.tok(close).begin, c.tok(close + 2).end, ")"});
    ++c.result.launches;
    i = close + 2;
  }
}

}  // namespace simt::syntax
