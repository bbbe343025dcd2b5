// The line a long simulated launch shows on stderr, so that a huge grid or a slow
// kernel never sits silent: how many blocks have started and, from the rate so far,
// how long the rest will take. On a terminal a bar redrawn at most ten times a second
// and erased when the launch ends; elsewhere (a log, CI) one line every 30 seconds.
// Launches shorter than half a second show nothing (sim/exec/worker.cpp).
#pragma once
#include <cstdint>
#include <string>

namespace simt {

// Installs the display as the executor's progress callback (sim/exec/executor.hpp).
void show_launch_progress();

// "3.2 s", "4.1 min", "2.5 h", "3.1 days", "2.9e+04 years": a duration people read.
std::string readable_duration(double seconds);

}  // namespace simt
