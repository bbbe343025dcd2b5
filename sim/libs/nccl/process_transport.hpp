// NCCL ranks in other processes (`simt exec --ranks N`: one process per rank,
// started by mpirun). Each process simulates its own GPUs; a communicator whose
// ranks live in several processes meets in a folder of shared memory
// (/dev/shm/simt-<job>/nccl-<id>/), which every rank's process maps:
//   control          one slot per rank: its process, its GPU, and, per collective,
//                    the call's signature, when its stream could start it, and two
//                    counters (published, consumed) that make the rendezvous;
//   c<seq>-r<rank>   what a rank contributes to collective number seq;
//   p<from>-<to>-<n> the n-th message from rank `from` to rank `to` (a header the
//                    receiver acknowledges in, then the bytes).
// Every process computes a collective's result from all ranks' contributions in
// NCCL's ring order (ring_order.hpp), so each rank gets the bits it would get in
// one process. Nothing here waits: the caller polls (communicator.cpp), so that a
// rank can publish all its calls of a group before it waits for any.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace simt::nccl {

// What every rank of a collective must agree on.
struct CallSignature {
  std::int32_t func = 0, type = 0, op = 0, root = 0;
  std::uint64_t count = 0;
  bool operator==(const CallSignature&) const = default;
};

// Another rank's part of a collective, mapped for reading.
struct Contribution {
  CallSignature signature;
  double ready_s = 0;           // when its stream could start the collective
  const void* data = nullptr;   // its send buffer's bytes (null when it sends none)
};

class ProcessTransport {
 public:
  // True when this process is one of several ranks' processes (simt exec --ranks,
  // or an MPI launcher's environment): then ncclCommInitRank's ranks may be elsewhere.
  static bool enabled();
  // The rendezvous of the communicator with unique id `id`; nullptr and `error` set
  // when it cannot be opened.
  static std::shared_ptr<ProcessTransport> open(const std::string& id, int nranks, std::string& error);
  ~ProcessTransport();
  ProcessTransport(const ProcessTransport&) = delete;
  ProcessTransport& operator=(const ProcessTransport&) = delete;

  // Registers rank `rank` of this process on GPU `device`: "" or why it cannot.
  std::string join(int rank, int device);
  bool all_joined() const;
  // After all_joined: the ranks of this process, and each rank's GPU.
  bool is_local(int rank) const;
  int local_count() const;
  int device_of(int rank) const;
  // "" while every rank's process is alive and all of them have joined; else why not.
  std::string check_peers() const;

  // Collectives, numbered from 1 in the order every rank makes them.
  void publish(std::uint64_t seq, int rank, const CallSignature& sig, double ready_s, const void* data,
               std::size_t bytes);
  bool all_published(std::uint64_t seq) const;
  // A rank's part; its bytes mapped when `with_data` (not needed for this process's own ranks).
  Contribution contribution(std::uint64_t seq, int rank, bool with_data);
  void consumed(std::uint64_t seq, int rank);
  bool all_consumed(std::uint64_t seq) const;
  void release(std::uint64_t seq);  // unmaps what this process read, removes what it wrote

  // Point to point: the n-th message from `from` to `to` (n counted by each side).
  void post_send(int from, int to, std::uint64_t n, double ready_s, const void* data, std::size_t bytes);
  // The receiver: true once the message is there; copies it to `out` (bytes must
  // match: else `error`) and answers with the time both sides start.
  bool try_receive(int from, int to, std::uint64_t n, double ready_s, void* out, std::size_t bytes, double& start_s,
                   std::string& error);
  // The sender: true once the receiver has answered; the start time it chose.
  bool try_complete_send(int from, int to, std::uint64_t n, double& start_s, std::string& error);

 private:
  struct Control;
  ProcessTransport() = default;
  std::string folder_;
  Control* control_ = nullptr;
  std::size_t control_bytes_ = 0;
  int nranks_ = 0;
  std::vector<int> my_ranks_;
  struct Mapping {
    void* address = nullptr;
    std::size_t bytes = 0;
  };
  std::vector<std::pair<std::uint64_t, Mapping>> read_maps_;                // collective contributions read
  std::vector<std::pair<std::uint64_t, std::string>> written_;              // collective files written
  struct Outgoing {
    std::string path;
    Mapping map;
  };
  std::vector<std::pair<std::string, Outgoing>> sends_;  // by message key
};

}  // namespace simt::nccl
