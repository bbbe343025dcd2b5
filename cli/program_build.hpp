// Building a user's CUDA program against the simulator with the compiler front end
// (docs/frontend.md): the syntax step, then clang with simtlab's instrumentation
// pass; linked with libsimt_sim.so and the report-at-exit object. Products are
// cached by content hash.
#pragma once
#include <string>
#include <vector>

namespace simt::cli {

struct BuildRequest {
  std::string source;  // the user's .cu file
  bool shared = false; // a shared library (for ctypes) instead of an executable
  std::vector<std::string> include_dirs;  // -I, as given (made absolute here)
  std::vector<std::string> defines;       // -D NAME or NAME=VALUE
};

struct BuildProduct {
  std::string path;    // the executable or .so, inside the cache
  bool cached = false; // reused from an earlier build
};

// Throws std::runtime_error with a message for the user. Syntax-step issues and
// compiler diagnostics are printed to stderr as they happen (file:line of the
// user's own file).
BuildProduct build_program(const BuildRequest& req);

// Where build products go: $SIMT_CACHE_DIR, else $XDG_CACHE_HOME/simtlab, else
// ~/.cache/simtlab, else <build dir>/program-cache.
std::string cache_root();

// The folder of the helpers programs are built and validated with
// (program/ in the source tree, share/simtlab/toolchain/... installed).
std::string program_dir();

// Runs a program, waits, and returns its exit status (128 + signal if killed). The
// program dies with simt: killing `simt exec` does not leave a simulation running.
// `output`: a file that takes the program's stdout (empty: simt's own stdout).
int run_program(const std::string& path, const std::vector<std::string>& args, const std::string& output = {});

// The labs (labs/ in the source tree, share/simtlab/labs installed), and the
// plotting scripts (plots/, share/simtlab/plots).
std::string labs_dir();
std::string plots_dir();

}  // namespace simt::cli
