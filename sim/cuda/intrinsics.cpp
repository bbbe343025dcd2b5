#include "sim/cuda/intrinsics.hpp"

#include <fmt/format.h>

#include <cstdlib>

namespace simt::detail {

// Out of line so that __builtin_return_address(0) is the kernel's call site.
void barrier(int value) { block_barrier(value, __builtin_return_address(0)); }

std::uint64_t collective(Collective kind, std::uint32_t mask, std::uint64_t value, int arg, int width) {
  return warp_collective(kind, mask, value, arg, width, __builtin_return_address(0));
}

void device_assert_fail(const char* expr, const char* file, int line) {
  ThreadState* t = current_thread();
  if (!t) {  // host code: behave like the C library's assert
    std::fprintf(stderr, "%s:%d: Assertion `%s' failed.\n", file, line, expr);
    std::abort();
  }
  Diagnostic d = t->block->make_diag(DiagKind::DeviceAssert, fmt::format("device assertion `{}` failed", expr), t,
                                     nullptr);
  d.location = fmt::format("{}:{}", file, line);
  throw KernelFault(std::move(d));
}

}  // namespace simt::detail

// The C library's assert calls this. In a kernel it becomes a device assertion
// (the launch fails with cudaErrorAssert); on the host it aborts as usual. It is
// declared noexcept, so the fault parks the thread rather than throwing.
extern "C" void __simt_assert_fail(const char* expr, const char* file, unsigned line, const char* function);
extern "C" void __assert_fail(const char* expr, const char* file, unsigned line, const char* function) {
  __simt_assert_fail(expr, file, line, function);  // sim/compiler/runtime_hooks.cpp
}
