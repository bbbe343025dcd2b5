// How many launches of a simulated program went wrong, read from its JSON report:
// `simt exec` turns a program's exit 0 into 1 when any did (docs/cli.md).
#pragma once
#include <cstddef>
#include <string>

namespace simt::cli {

// Launches the device refused or abandoned (a CUDA error code) or that raised an
// error diagnostic (a sanitizer finding, an assert). Warnings do not count. A
// missing or unreadable report counts nothing: the program's own status says why.
std::size_t launches_with_errors(const std::string& report_path);

}  // namespace simt::cli
