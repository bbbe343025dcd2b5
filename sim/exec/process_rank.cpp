#include "sim/exec/process_rank.hpp"

#include <cstdlib>

namespace simt {

namespace {

const char* first_set(std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (const char* v = std::getenv(n); v && *v) return v;
  return nullptr;
}

const char* launcher_rank() { return first_set({"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}); }

// RANK, WORLD_SIZE and LOCAL_RANK from the launcher's names, before main reads them.
struct TorchStyleRankVariables {
  TorchStyleRankVariables() {
    const char* rank = launcher_rank();
    if (!rank) return;
    setenv("RANK", rank, 0);
    if (const char* size = first_set({"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE"})) setenv("WORLD_SIZE", size, 0);
    if (const char* local = first_set({"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "PMI_LOCAL_RANK"}))
      setenv("LOCAL_RANK", local, 0);
  }
};
const TorchStyleRankVariables g_rank_variables;

}  // namespace

int process_rank() {
  const char* job = std::getenv("SIMT_JOB");
  const char* rank = launcher_rank();
  return job && *job && rank ? std::atoi(rank) : -1;
}

std::string per_rank_path(const std::string& path) {
  const int rank = process_rank();
  if (rank < 0 || path.empty() || path == "-") return path;
  return path + ".rank" + std::to_string(rank);
}

}  // namespace simt
