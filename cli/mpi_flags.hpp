// A program that calls MPI itself (#include <mpi.h>, as llm.c's multi-GPU code
// does) is built with the flags Open MPI's compiler wrapper would add
// (`mpicxx --showme:compile`, `--showme:link`).
#pragma once
#include <string>
#include <vector>

namespace simt::cli {

struct MpiFlags {
  std::vector<std::string> compile, link;
};

// True when the text includes <mpi.h>.
bool includes_mpi(const std::string& text);

// Open MPI's flags, asked once; none when Open MPI is not installed.
const MpiFlags& mpi_flags();

}  // namespace simt::cli
