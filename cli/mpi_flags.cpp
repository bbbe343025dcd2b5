#include "mpi_flags.hpp"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <regex>
#include <sstream>

namespace simt::cli {

namespace {

// The words a command prints, or nothing when it cannot run.
std::vector<std::string> words_of(const std::string& command, bool& ok) {
  std::vector<std::string> words;
  FILE* p = popen((command + " 2>/dev/null").c_str(), "r");
  if (!p) {
    ok = false;
    return words;
  }
  std::string text;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) text += buf.data();
  ok = pclose(p) == 0;
  std::istringstream in(text);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

}  // namespace

bool includes_mpi(const std::string& text) {
  static const std::regex include(R"((^|\n)[ \t]*#[ \t]*include[ \t]*[<"]mpi\.h[>"])");
  return std::regex_search(text, include);
}

const MpiFlags& mpi_flags() {
  static const MpiFlags flags = [] {
    MpiFlags f;
    bool compile_ok = false, link_ok = false;
    f.compile = words_of("mpicxx --showme:compile", compile_ok);
    f.link = words_of("mpicxx --showme:link", link_ok);
    // Without Open MPI nothing is added: a source that includes <mpi.h> only under
    // __has_include (kernels/parallel/ddp.cu) still builds, one that needs it gets
    // clang's "'mpi.h' file not found".
    if (!compile_ok || !link_ok) f = {};
    return f;
  }();
  return flags;
}

}  // namespace simt::cli
