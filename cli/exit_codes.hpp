// What `simt` returns, the same for every command (docs/cli.md):
//   0  done, and every check passed
//   1  it ran, but something failed: a result check, a launch the device refused,
//      a sanitizer diagnostic, an error in the input files
//   2  usage: the command line is wrong (unknown command or name, a missing, malformed
//      or out-of-range value); nothing was run
//   3  a simulated thread crashed the simulated program, or code the compiler pass
//      does not instrument touched device memory (sim/exec/crash_guard.cpp)
// `simt exec` returns the simulated program's own exit code (docs/exec.md).
#pragma once

namespace simt::cli {

enum ExitCode : int { kExitOk = 0, kExitFailed = 1, kExitUsage = 2, kExitCrashed = 3 };

}  // namespace simt::cli
