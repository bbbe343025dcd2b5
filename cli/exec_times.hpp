// After `simt exec` runs a program: the kernel time of every launch it made, from
// the launch report the program wrote, the total (launches one after another),
// and what the program's simulated clock saw (kernels, copies, memsets).
#pragma once
#include <string>

namespace simt::cli {

// Reads the JSON array of launches at `report_path` (program/report_at_exit.cpp's,
// each priced once by the program's clock: its "time") and either prints a table of
// times and the total to stderr, or, when `json_to_stderr`, the JSON there instead.
// `timeline_path` is the program's Chrome trace (the option timeline); missing: no
// clock summary. `device` names the device in the table's title.
void report_kernel_times(const std::string& report_path, const std::string& timeline_path, const std::string& device,
                         bool json_to_stderr);

// What the program's simulated clock saw, from its timeline: the work of each kind,
// when the last of it ends and, with several GPUs, an ASCII timeline ("" when the
// file is missing).
std::string clock_summary(const std::string& timeline_path);

}  // namespace simt::cli
