#include "sim/report/launch_progress.hpp"

#include "sim/exec/executor.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

namespace simt {
namespace {

using Clock = std::chrono::steady_clock;

// One launch as the display has seen it: when it was first reported, and how far.
struct Seen {
  std::string kernel;
  std::uint64_t first_done = 0, last_done = 0, total = 0;
  Clock::time_point first, last_line;
  bool active = false;
};

// The rest of the launch at the rate since the display first saw it; negative: unknown.
double remaining_seconds(const Seen& s, std::uint64_t done, Clock::time_point now) {
  const double elapsed = std::chrono::duration<double>(now - s.first).count();
  if (done <= s.first_done || elapsed <= 0) return -1;
  return double(s.total - done) * elapsed / double(done - s.first_done);
}

std::string status(const Seen& s, std::uint64_t done, Clock::time_point now) {
  const double rest = remaining_seconds(s, done, now);
  return fmt::format("{}/{} blocks, {}", done, s.total,
                     rest < 0 ? std::string("the rest's time not known yet") : "about " + readable_duration(rest) + " to go");
}

void draw(Seen& s, std::uint64_t done, bool terminal) {
  const Clock::time_point now = Clock::now();
  if (terminal) {
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * (long double)done / s.total);
    fmt::print(stderr, "\r\033[K  simulating {} [{}{}] {:3}%  {}", s.kernel, std::string(filled, '#'),
               std::string(kWidth - filled, '.'), static_cast<int>(100 * (long double)done / s.total),
               status(s, done, now));
  } else if (now - s.last_line >= std::chrono::seconds(30)) {
    s.last_line = now;
    fmt::print(stderr, "simt: kernel {} still running: {}\n", s.kernel, status(s, done, now));
  }
  std::fflush(stderr);
}

}  // namespace

std::string readable_duration(double seconds) {
  if (seconds < 60) return fmt::format("{:.1f} s", seconds);
  if (seconds < 3600) return fmt::format("{:.1f} min", seconds / 60);
  if (seconds < 86400) return fmt::format("{:.1f} h", seconds / 3600);
  if (seconds < 365.25 * 86400) return fmt::format("{:.1f} days", seconds / 86400);
  return fmt::format("{:.3g} years", seconds / (365.25 * 86400));
}

void show_launch_progress() {
  const bool terminal = isatty(STDERR_FILENO) != 0;
  progress_callback() = [terminal, seen = Seen{}](const std::string& kernel, std::uint64_t done,
                                                  std::uint64_t total) mutable {
    if (done >= total) {  // the launch ended: the bar makes way for what follows
      if (seen.active && terminal) fmt::print(stderr, "\r\033[K");
      seen.active = false;
      return;
    }
    if (!seen.active || kernel != seen.kernel || done < seen.last_done || total != seen.total) {
      seen = Seen{kernel, done, done, total, Clock::now(), Clock::now(), true};
      if (!terminal) return;  // the first line after 30 s, with a rate to go by
    }
    seen.last_done = done;
    draw(seen, done, terminal);
  };
}

}  // namespace simt
