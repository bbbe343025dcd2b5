// Device code's printf is the C library's, called from a simulated thread (both
// front ends). Programs `simt exec`/`simt cc` build are linked with
// `-Wl,--wrap=printf` and the like for every stdio entry point a compiler may turn
// printf into (printf, vprintf, puts, putchar; cli/program_build.cpp): their calls
// come here, are counted when a simulated thread makes them, and go on to the C
// library's f-variants, which are not wrapped. A link-time wrap, not a symbol of
// the same name: a library loaded by Python's ctypes would otherwise bind to the
// C library's printf, which the process loaded first.
#include "sim/exec/device_output.hpp"

#include "sim/state/context.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

namespace simt {

namespace {

std::atomic<std::uint64_t> g_device_output{0};
std::atomic<bool> g_held{false};
std::mutex g_held_mutex;
std::string g_held_text;

// True for a simulated thread's output: counted, and kept back while held.
bool note_output() {
  if (!current_thread()) return false;
  g_device_output.fetch_add(1, std::memory_order_relaxed);
  return g_held.load(std::memory_order_relaxed);
}

int keep(const char* format, va_list ap) {
  va_list again;
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, format, again);
  va_end(again);
  if (n <= 0) return n;
  std::string text(static_cast<std::size_t>(n) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, ap);
  text.pop_back();
  std::lock_guard lock(g_held_mutex);
  g_held_text += text;
  return n;
}

int keep_text(const char* format, ...) {
  va_list ap;
  va_start(ap, format);
  const int n = keep(format, ap);
  va_end(ap);
  return n;
}

}  // namespace

std::uint64_t device_output_calls() { return g_device_output.load(std::memory_order_relaxed); }

void hold_device_output() { g_held = true; }

void release_device_output(bool write) {
  g_held = false;
  std::lock_guard lock(g_held_mutex);
  if (write) std::fwrite(g_held_text.data(), 1, g_held_text.size(), stdout);
  g_held_text.clear();
}

}  // namespace simt

extern "C" {

int __wrap_printf(const char* format, ...) {
  const bool held = simt::note_output();
  va_list ap;
  va_start(ap, format);
  int n = held ? simt::keep(format, ap) : std::vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}

int __wrap_vprintf(const char* format, va_list ap) {
  if (simt::note_output()) return simt::keep(format, ap);
  return std::vfprintf(stdout, format, ap);
}

int __wrap_puts(const char* s) {
  if (simt::note_output()) return simt::keep_text("%s\n", s) < 0 ? EOF : 1;
  if (std::fputs(s, stdout) == EOF) return EOF;
  return std::fputc('\n', stdout) == EOF ? EOF : 1;
}

int __wrap_putchar(int c) {
  if (simt::note_output()) return simt::keep_text("%c", c) < 0 ? EOF : static_cast<unsigned char>(c);
  return std::fputc(c, stdout);
}

}  // extern "C"
