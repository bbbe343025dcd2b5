// simt exec --ranks N: the program runs as N processes, one per rank, started by
// Open MPI's mpirun on this machine (oversubscribed, loopback only, as root too);
// each process simulates the GPUs of its node and meets the others in NCCL calls
// (sim/libs/nccl/process_transport.hpp). Each rank writes its own report; simt
// prints them in rank order and merges the launches and timelines.
#pragma once
#include <string>
#include <vector>

namespace simt::cli {

struct RanksRun {
  std::string program;  // the built executable
  std::vector<std::string> args;
  int ranks = 2;
  std::string hostfile;  // optional: mpirun --hostfile
  std::string report;    // launches JSON simt reads (per rank: .rank<k>)
  std::string timeline;  // merged timeline written here (per rank files beside it)
  std::string tables;    // per-rank tables files (.rank<k>)
};

// A clear error when mpirun cannot be found.
void check_mpirun();

// Runs the ranks; the worst exit status of them (mpirun's).
int run_ranks(const RanksRun& r);

// After run_ranks: each rank's tables and kernel times on stderr in rank order;
// the ranks' launches merged into `r.report` (each with its "rank") and their
// timelines into `r.timeline`; the per-rank files removed. The number of launches
// that had errors, over all ranks.
std::size_t merge_rank_reports(const RanksRun& r, const std::string& device, bool json_to_stderr);

}  // namespace simt::cli
