// A one-line progress bar on stderr for long simulated launches (only on a terminal).
#pragma once
#include "sim/exec/executor.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace simt::cli {

inline void show_progress_on_terminal() {
  if (!isatty(STDERR_FILENO)) return;
  progress_callback() = [](const std::string& kernel, std::uint64_t done, std::uint64_t total) {
    if (done >= total) {
      fmt::print(stderr, "\r\033[K");  // the finished launch's report replaces the bar
      return;
    }
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(kWidth * done / total);
    fmt::print(stderr, "\r  simulating {} [{}{}] {:3}%  {}/{} blocks", kernel, std::string(filled, '#'),
               std::string(kWidth - filled, '.'), 100 * done / total, done, total);
    std::fflush(stderr);
  };
}

}  // namespace simt::cli
