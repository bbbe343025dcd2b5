// After `simt exec` runs a program: the kernel time of every launch it made, from
// the launch report the program wrote, the total (launches one after another),
// and what the program's simulated clock saw (kernels, copies, memsets).
#pragma once
#include <string>

namespace simt::cli {

// Reads the JSON array of launches at `report_path` (report_at_exit.cpp's), adds a
// "time" object to each, and either prints a table of times and the total to
// stderr, or, when `json_to_stderr`, prints the augmented JSON there instead. When
// `rewrite` is set the file is written back with the times in it. `timeline_path`
// is the program's Chrome trace (SIMT_TIMELINE); missing: no clock summary.
void report_kernel_times(const std::string& report_path, const std::string& timeline_path, const std::string& device,
                         bool json_to_stderr, bool rewrite);

}  // namespace simt::cli
