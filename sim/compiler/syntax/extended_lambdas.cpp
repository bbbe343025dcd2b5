// An extended lambda, `[=] __host__ __device__ (int i) { ... }`, is how nvcc code hands
// a device function to Thrust or a kernel template. Between the capture list and the
// parameters the CUDA keywords are nvcc's alone: on the CPU `__device__` is an attribute
// (cuda_runtime.h), which C++ does not allow there. The syntax step drops them; the
// lambda stays device code wherever a kernel calls it, as every function the module
// defines does (docs/frontend.md).
#include "sim/compiler/syntax/passes.hpp"

namespace simt::syntax {

namespace {

bool cuda_keyword(const Context& c, std::size_t i) { return c.is(i, "__host__") || c.is(i, "__device__"); }

// The `]` at i closes a lambda's capture list: not an attribute's `[[...]]`.
bool ends_capture_list(const Context& c, std::size_t i) {
  if (!c.is(i, "]")) return false;
  const std::size_t open = c.opening(i);
  if (open >= c.size()) return false;
  const bool attribute = (open > 0 && c.is(open - 1, "[")) || c.is(open + 1, "[");
  return !attribute;
}

}  // namespace

bool lambda_qualifier(const Context& c, std::size_t i) {
  if (!cuda_keyword(c, i)) return false;
  std::size_t j = i;
  while (j > 0 && cuda_keyword(c, j - 1)) --j;
  return j > 0 && ends_capture_list(c, j - 1);
}

void rewrite_extended_lambdas(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i)
    if (lambda_qualifier(c, i)) c.replace(i, "");
}

}  // namespace simt::syntax
