// Device code's printf is the C library's, called from a simulated thread (both
// front ends). libsimt_sim.so defines the stdio entry points a compiler may turn
// printf into (printf, vprintf, puts, putchar): programs link it before the C
// library, so their calls come here, are counted when a simulated thread makes
// them, and go on to the C library's v/f-variants, which are not redefined.
// Built with -fno-builtin (sim/CMakeLists.txt) so these bodies are not folded
// back into the calls they define.
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

int printf(const char* format, ...) {
  simt::note_output();
  va_list ap;
  va_start(ap, format);
  int n = std::vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}

int vprintf(const char* format, va_list ap) {
  simt::note_output();
  return std::vfprintf(stdout, format, ap);
}

int puts(const char* s) {
  simt::note_output();
  if (std::fputs(s, stdout) == EOF) return EOF;
  return std::fputc('\n', stdout) == EOF ? EOF : 1;
}

int putchar(int c) {
  simt::note_output();
  return std::fputc(c, stdout);
}

}  // extern "C"
