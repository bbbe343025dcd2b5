// `extern __shared__ T name[];` declares the launch's dynamic shared memory. C++
// on the CPU cannot express that declaration, so it becomes
// `SIMT_DYNAMIC_SHARED(T, name);`: a pointer to the block's dynamic shared memory
// (sim/compiler/include/simt_cuda/device_builtins.h).
#include "sim/compiler/syntax/passes.hpp"

namespace simt::syntax {

void rewrite_dynamic_shared(Context& c) {
  for (std::size_t i = 0; i + 1 < c.size(); ++i) {
    if (!c.is(i, "extern") || !c.is(i + 1, "__shared__")) continue;
    // Skip __align__(N): the dynamic shared base is 16-byte aligned on both sides.
    std::size_t type_first = i + 2;
    while (c.is(type_first, "__align__") && c.is(type_first + 1, "(")) type_first = c.closing(type_first + 1) + 1;
    std::size_t semi = type_first;
    while (semi < c.size() && !c.is(semi, ";")) ++semi;
    // Expect: type tokens, name, [ ], ;
    bool shape = semi >= type_first + 4 && c.is(semi - 1, "]") && c.is(semi - 2, "[") &&
                 c.tok(semi - 3).kind == TokenKind::Identifier;
    if (!shape) {
      c.error(c.tok(i), "extern __shared__ must have the form `extern __shared__ T name[];` for the simulator");
      continue;
    }
    std::size_t name = semi - 3;
    c.edits.push_back({c.tok(i).begin, c.tok(type_first).begin, "SIMT_DYNAMIC_SHARED("});
    c.edits.push_back({c.tok(name - 1).end, c.tok(name).begin, ", "});
    c.edits.push_back({c.tok(name).end, c.tok(semi).begin, ")"});
    i = semi;
  }
}

}  // namespace simt::syntax
