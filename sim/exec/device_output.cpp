// Device code's printf is the C library's, called from a simulated thread (both
// front ends). Programs `simt exec`/`simt cc` build are linked with
// `-Wl,--wrap=printf` and the like for every stdio entry point a compiler may turn
// printf into (printf, vprintf, puts, putchar; cli/program_build.cpp): their calls
// come here, are counted when a simulated thread makes them, and go on to the C
// library's f-variants, which are not wrapped. A link-time wrap, not a symbol of
// the same name: a library loaded by Python's ctypes would otherwise bind to the
// C library's printf, which the process loaded first.
#include "sim/exec/device_output.hpp"

#include "sim/memory/global_memory.hpp"
#include "sim/state/context.hpp"

#include <atomic>
#include <cstring>
#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>
#include <unordered_map>

namespace simt {

namespace {

std::atomic<std::uint64_t> g_device_output{0};
std::atomic<bool> g_held{false};
std::mutex g_held_mutex;
std::string g_held_text;
std::mutex g_by_launch_mutex;
std::unordered_map<std::uint32_t, std::uint64_t> g_by_launch;  // launch serial -> its calls

// True for a simulated thread's output: counted, and kept back while held.
bool note_output() {
  if (!current_thread()) return false;
  g_device_output.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard lock(g_by_launch_mutex);
    ++g_by_launch[t_address_map.serial];
  }
  return g_held.load(std::memory_order_relaxed);
}

// A %s argument as the C library may read it: a device pointer (a string a kernel
// built in global memory) through the host view of the same bytes, which the
// simulator's guard leaves open, instead of the device view, which it does not.
const char* readable_string(const char* s) {
  const GlobalMemory* gm = GlobalMemory::existing();
  const auto a = reinterpret_cast<std::uintptr_t>(s);
  return gm && gm->contains(a) ? reinterpret_cast<const char*>(gm->host_address(a)) : s;
}

// One conversion of `format` at `spec` ("%-8.3lf" ...) with its argument from `ap`,
// appended to `out`; returns the length of the spec.
std::size_t format_one(const char* spec, va_list& ap, std::string& out) {
  std::size_t n = 1;  // past '%'
  std::string piece = "%";
  auto take_number = [&] {  // width or precision: digits, or '*' from the arguments
    if (spec[n] == '*') {
      piece += std::to_string(va_arg(ap, int));
      ++n;
      return;
    }
    while (spec[n] >= '0' && spec[n] <= '9') piece += spec[n++];
  };
  while (std::strchr("-+ #0'", spec[n]) && spec[n]) piece += spec[n++];
  take_number();
  if (spec[n] == '.') {
    piece += spec[n++];
    take_number();
  }
  std::string length;
  while (spec[n] && std::strchr("hlLqjzt", spec[n])) length += spec[n++];
  const char conv = spec[n];
  if (!conv) {  // a lone '%' at the end: printed as is
    out += piece;
    return n;
  }
  piece += length;
  piece += conv;
  ++n;
  char buf[512];
  int k = 0;
  switch (conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'c':
      if (length == "ll" || length == "q" || length == "j") k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, long long));
      else if (length == "l" || length == "z" || length == "t") k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, long));
      else k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, int));
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      if (length == "L") k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, long double));
      else k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, double));
      break;
    case 'p': k = std::snprintf(buf, sizeof buf, piece.c_str(), va_arg(ap, void*)); break;
    case 's': {
      const char* s = va_arg(ap, const char*);
      const char* r = s ? readable_string(s) : "(null)";
      const int len = std::snprintf(nullptr, 0, piece.c_str(), r);
      std::string text(static_cast<std::size_t>(std::max(len, 0)) + 1, '\0');
      std::snprintf(text.data(), text.size(), piece.c_str(), r);
      text.pop_back();
      out += text;
      return n;
    }
    case 'n': (void)va_arg(ap, int*); return n;  // nothing written through a device pointer
    case '%': out += '%'; return n;
    default: out += piece; return n;  // unknown: printed as written
  }
  if (k > 0) out.append(buf, std::min<std::size_t>(std::size_t(k), sizeof buf - 1));
  return n;
}

// A simulated thread's printf, formatted here so that %s may name device memory.
std::string format_device(const char* format, va_list ap) {
  std::string out;
  va_list args;
  va_copy(args, ap);
  for (const char* p = format; *p;) {
    if (*p != '%') {
      out += *p++;
      continue;
    }
    p += format_one(p, args, out);
  }
  va_end(args);
  return out;
}

int keep(const char* format, va_list ap) {
  const std::string text = format_device(format, ap);
  std::lock_guard lock(g_held_mutex);
  g_held_text += text;
  return static_cast<int>(text.size());
}

// Not held: straight to stdout, formatted the same way.
int write_device(const char* format, va_list ap) {
  const std::string text = format_device(format, ap);
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() ? static_cast<int>(text.size()) : -1;
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

std::uint64_t take_device_output_calls(std::uint32_t serial) {
  std::lock_guard lock(g_by_launch_mutex);
  const auto it = g_by_launch.find(serial);
  if (it == g_by_launch.end()) return 0;
  const std::uint64_t n = it->second;
  g_by_launch.erase(it);
  return n;
}

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
  int n = held                    ? simt::keep(format, ap)
          : simt::current_thread() ? simt::write_device(format, ap)
                                   : std::vfprintf(stdout, format, ap);
  va_end(ap);
  return n;
}

int __wrap_vprintf(const char* format, va_list ap) {
  if (simt::note_output()) return simt::keep(format, ap);
  if (simt::current_thread()) return simt::write_device(format, ap);
  return std::vfprintf(stdout, format, ap);
}

int __wrap_puts(const char* s) {
  if (simt::note_output()) return simt::keep_text("%s\n", s) < 0 ? EOF : 1;
  if (simt::current_thread()) s = simt::readable_string(s);
  if (std::fputs(s, stdout) == EOF) return EOF;
  return std::fputc('\n', stdout) == EOF ? EOF : 1;
}

int __wrap_putchar(int c) {
  if (simt::note_output()) return simt::keep_text("%c", c) < 0 ? EOF : static_cast<unsigned char>(c);
  return std::fputc(c, stdout);
}

}  // extern "C"
