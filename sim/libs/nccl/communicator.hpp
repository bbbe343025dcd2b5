// NCCL's communicators over the simulated GPUs of one process: the ranks of one
// communicator (a clique, one per ncclUniqueId), each rank's calls in order, and
// the rendezvous that runs a collective once every rank has called it.
//
// A call is submitted when it is made (or, between ncclGroupStart and
// ncclGroupEnd, when the group ends). A collective runs — data moved, time placed
// on every rank's stream — when its last rank submits it; the calling thread then
// waits for the ranks other threads drive. Waiting for a rank the calling thread
// itself drives would wait forever (NCCL hangs there on a GPU): that is an error
// that says to group the calls.
#pragma once
#include "sim/libs/nccl/reduce_ops.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simt::nccl {

enum class Func { all_reduce, broadcast, reduce, all_gather, reduce_scatter, send, recv };
std::string func_name(Func f);  // "ncclAllReduce"

struct Clique;

// One NCCL call of one rank.
struct Call {
  Func func = Func::all_reduce;
  const void* send = nullptr;
  void* recv = nullptr;
  std::size_t count = 0;  // NCCL's count argument (per rank: sendcount, recvcount)
  DataType type = DataType::float32;
  RedOp op = RedOp::sum;
  int root = 0;   // broadcast, reduce
  int peer = -1;  // send, recv
  const void* stream = nullptr;
  int rank = 0;
  double issued_s = 0;  // the issuing thread's host time
  std::uint64_t id = 0;  // the call's number in this process
  std::shared_ptr<Clique> clique;
};

// The result of a call or group: ok, or the reason (already printed on stderr).
struct Outcome {
  int code = 0;  // an ncclResult_t value
  std::string message;
};

// Communicator setup.
std::shared_ptr<Clique> clique_for_id(const std::string& id, int nranks, std::string& error);
std::shared_ptr<Clique> new_clique(int nranks);
// Registers rank `rank` on `device`; "" or the reason it cannot.
std::string join(Clique& c, int rank, int device);
int clique_size(const Clique& c);

// The calling thread drives this rank (it created or called it): it must not wait for it.
void note_driven_by_this_thread(const Clique& c, int rank);

// Checks a call's arguments; "" or why NCCL would refuse it.
std::string check_call(const Call& call, int device);

// Group calls (NCCL's ncclGroupStart/End nest; the outermost end submits).
void group_start();
bool in_group();
Outcome group_end();
// A call: queued inside a group, else submitted and waited for now.
Outcome submit(Call call);

std::string last_error();

}  // namespace simt::nccl
