// Device printf: how many times device code wrote to stdout. A launch that
// printed is never skipped as a repeat (sim/shortcuts/repeat_launch.hpp): its output
// is part of what it does.
#pragma once
#include <cstdint>

namespace simt {

// Calls of printf, vprintf, puts and putchar made by simulated threads so far
// (in programs linked with kStdioWraps).
std::uint64_t device_output_calls();
// Those the launch numbered `serial` made (its blocks' threads), forgotten once taken:
// launches of several GPUs may run at once, and only a launch's own output marks it.
std::uint64_t take_device_output_calls(std::uint32_t serial);

// While held, what simulated threads print is kept back instead of written: a
// launch run ahead of deferred ones may be undone and run again
// (sim/shortcuts/deferred_launches.hpp). Released, it is written in order, or dropped.
void hold_device_output();
void release_device_output(bool write);

// The linker flag that routes a program's stdio calls through the counting wrappers.
constexpr const char* kStdioWraps = "-Wl,--wrap=printf,--wrap=vprintf,--wrap=puts,--wrap=putchar";

}  // namespace simt
