// Device code's printf is the C library's, called from a simulated thread (both
// front ends). Programs `simt exec`/`simt cc` build are linked with
// `-Wl,--wrap=printf` and the like for every stdio entry point a compiler may turn
// printf into (printf, vprintf, puts, putchar; cli/program_build.cpp): their calls
// come here, are counted when a simulated thread makes them, and go on to the C
// library's f-variants, which are not wrapped. A link-time wrap, not a symbol of
// the same name: a library loaded by Python's ctypes would otherwise bind to the
// C library's printf, which the process loaded first.
#include "sim/cuda/device_output.hpp"

#include "sim/exec/context.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>

namespace simt {

namespace {

std::atomic<std::uint64_t> g_device_output{0};

void note_output() {
  if (current_thread()) g_device_output.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

std::uint64_t device_output_calls() { return g_device_output.load(std::memory_order_relaxed); }

}  // namespace simt

extern "C" {

int __wrap_printf(const char* format, ...) {
  simt::note_output();
  va_list ap;
  va_start(ap, format);
  int n = std::vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}

int __wrap_vprintf(const char* format, va_list ap) {
  simt::note_output();
  return std::vfprintf(stdout, format, ap);
}

int __wrap_puts(const char* s) {
  simt::note_output();
  if (std::fputs(s, stdout) == EOF) return EOF;
  return std::fputc('\n', stdout) == EOF ? EOF : 1;
}

int __wrap_putchar(int c) {
  simt::note_output();
  return std::fputc(c, stdout);
}

}  // extern "C"
