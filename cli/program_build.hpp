// Building a user's CUDA program against the simulator with the compiler front end
// (docs/frontend.md): the syntax step, then clang with simtlab's instrumentation
// pass; linked with libsimt_sim.so and the report-at-exit object. Products are
// cached by content hash.
#pragma once
#include <string>
#include <vector>

namespace simt::cli {

struct BuildRequest {
  std::string source;  // the user's .cu file (the first source: it names the product)
  bool shared = false; // a shared library (for ctypes) instead of an executable
  std::vector<std::string> include_dirs;  // -I, as given (made absolute here)
  std::vector<std::string> defines;       // -D NAME or NAME=VALUE
  // More sources of the same program (`simt exec main.cpp kernels.cu`), each compiled
  // to its own object and linked with the first: a .cu through the syntax step and
  // the pass (cuda_runtime.h included first, as nvcc does), a C++ file (.cpp, .cc,
  // .cxx) as host code (no syntax step, nothing included for it). A lone source is
  // always built as CUDA, whatever its name.
  std::vector<std::string> more_sources;
};

// Whether `path` names a source simt exec/cc builds: .cu, or C++ (.cpp, .cc, .cxx, .c++).
bool is_source_name(const std::string& path);
bool is_cuda_source_name(const std::string& path);

// Every source of a request once, existing: throws std::invalid_argument naming a
// missing file or one given twice (before anything is built).
void check_sources(const BuildRequest& req);

struct BuildProduct {
  std::string path;    // the executable or .so, inside the cache
  bool cached = false; // reused from an earlier build
};

// Throws std::runtime_error with a message for the user (std::invalid_argument for
// a request check_sources refuses). Syntax-step issues and
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
