// Which rank this process is when a program runs as one process per rank
// (`simt exec --ranks N` starts them with mpirun). Before main, a program started
// that way finds RANK, WORLD_SIZE and LOCAL_RANK set from the launcher's variables
// (Open MPI's OMPI_COMM_WORLD_*, PMIx's, MPICH's PMI_*) unless it set them itself,
// as torchrun-style programs expect.
#pragma once
#include <string>

namespace simt {

// This process's rank under `simt exec --ranks` (SIMT_JOB set), else -1.
int process_rank();

// Under `simt exec --ranks`, each rank writes its reports beside the path simt
// gave: "<path>.rank<k>"; otherwise `path` itself.
std::string per_rank_path(const std::string& path);

}  // namespace simt
