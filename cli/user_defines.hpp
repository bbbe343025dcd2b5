// Where a learner's -D lands. simtlab's own headers (with template parameters, function
// parameters and locals of ordinary names: N, T, n, i, x) must not see `-D N=64`:
//  - such a macro is defined at the top of the build unit, after the forced
//    cuda_runtime.h and everything it pulls in;
//  - each `#include <...>` of one of simtlab's CUDA headers in the learner's files is
//    wrapped in push_macro/#undef/pop_macro of those names, so the header is compiled
//    without them and the learner's code after it sees them again.
// Reserved names (`_X`, `__x`) and NDEBUG configure headers, so they stay on the
// compiler's command line and reach every header, as under nvcc.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace simt::cli {

struct UserDefines {
  std::vector<std::string> flags;  // "-DNDEBUG", "-D__CUDA_NO_HALF_OPERATORS__"
  std::string unit_lines;          // "#define N 64\n"
  std::vector<std::string> names;  // of the unit_lines' macros: "N"
};

// Throws std::invalid_argument for a malformed -D (no name, a line break).
UserDefines split_user_defines(const std::vector<std::string>& defines);

// `text` (lines of `file`) with each `#include <H>` (or `"H"` with no H beside `file`)
// where `include_dir`/H exists wrapped as above, followed by a #line that keeps the
// following lines' numbers.
std::string shield_includes(const std::string& text, const std::string& file, const UserDefines& defines,
                            const std::filesystem::path& include_dir);

}  // namespace simt::cli
