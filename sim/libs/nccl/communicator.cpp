#include "sim/libs/nccl/communicator.hpp"

#include "sim/clock/device_clock.hpp"
#include "sim/clock/link_traffic.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/exec/devices.hpp"
#include "sim/libs/nccl/process_transport.hpp"
#include "sim/libs/nccl/ring_order.hpp"
#include "sim/libs/nccl/tree_order.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/shortcuts/repeat_launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <thread>

namespace simt::nccl {

struct Clique {
  int nranks = 0;
  std::vector<int> devices;  // -1: not joined yet
  std::vector<std::uint64_t> next_seq;
  // Collective number -> each rank's call, once made.
  std::map<std::uint64_t, std::vector<std::optional<Call>>> collectives;
  // (sender, receiver) -> calls waiting for their other half.
  std::map<std::pair<int, int>, std::deque<Call>> sends, recvs;
  std::string broken;  // why no call on it can run any more

  // Ranks in other processes (simt exec --ranks): the rendezvous, the collectives
  // this process has published its ranks' parts of, and messages to or from them.
  std::shared_ptr<ProcessTransport> remote;
  std::set<std::uint64_t> published;
  struct Message {
    Call call;
    std::uint64_t n = 0;  // the n-th message between the two ranks, in this direction
    double ready_s = 0;
  };
  std::vector<Message> remote_sends, remote_recvs;
  std::map<std::pair<int, int>, std::uint64_t> messages_sent, messages_received;
  std::uint64_t remote_progress = 0;  // completed remote work, for the stall check
};

namespace {

thread_local int t_group_depth = 0;
thread_local std::vector<Call> t_group_calls;
thread_local std::set<std::pair<const Clique*, int>> t_driven;
thread_local std::string t_last_error;

std::condition_variable_any& progress() {
  static std::condition_variable_any cv;
  return cv;
}

std::map<std::string, std::weak_ptr<Clique>>& registry() {
  static std::map<std::string, std::weak_ptr<Clique>> r;
  return r;
}

Outcome fail(int code, std::string message) {
  t_last_error = message;
  fmt::print(stderr, "simt: nccl: {}\n", message);
  return {code, std::move(message)};
}

std::size_t bytes_of(const Call& c, std::size_t count) { return count * type_size(c.type); }

// nccl-tests' S: the whole buffer a collective works on.
double collective_bytes(const Call& c, int n) {
  const double b = static_cast<double>(bytes_of(c, c.count));
  return c.func == Func::all_gather || c.func == Func::reduce_scatter ? b * n : b;
}

const char* model_op(Func f) {
  switch (f) {
    case Func::all_reduce: return "all-reduce";
    case Func::broadcast: return "broadcast";
    case Func::reduce: return "reduce";
    case Func::all_gather: return "all-gather";
    case Func::reduce_scatter: return "reduce-scatter";
    default: return "send";
  }
}

void* host_view(const void* p) { return const_cast<void*>(runtime_view(p)); }

// The deferred launches that write what a call reads, or read what it writes, run
// first; repeats of launches that read what it writes are not skipped.
void before_touching(const void* p, std::size_t bytes, bool writes) {
  if (!p || bytes == 0) return;
  DeferredLaunches::instance().before_host_access(p, bytes);
  if (writes) RepeatLaunches::instance().host_wrote(p, bytes);
}

// The ring's links each carry `per_link` bytes, rank r to rank r+1.
// A rank of this process (every rank, unless some live in other processes).
bool local_rank(const Clique& q, int rank) { return !q.remote || q.remote->is_local(rank); }

// Each process counts the links its own ranks send on, so that the per-rank reports add up.
void count_link(const Clique& q, int from, int to, double bytes) {
  if (local_rank(q, from)) add_link_bytes(q.devices[from], q.devices[to], bytes);
}

void count_ring_links(const Clique& q, double per_link) {
  for (int r = 0; r < q.nranks; ++r) count_link(q, r, (r + 1) % q.nranks, per_link);
}

void count_links(const Clique& q, const Call& c) {
  const int n = q.nranks;
  const double s = collective_bytes(c, n);
  switch (c.func) {
    case Func::all_reduce: return count_ring_links(q, 2.0 * (n - 1) / n * s);
    case Func::all_gather:
    case Func::reduce_scatter: return count_ring_links(q, double(n - 1) / n * s);
    case Func::broadcast:
    case Func::reduce:  // a chain: every link but the one into the chain's start carries S
      for (int k = 1; k < n; ++k) {
        const int from = c.func == Func::broadcast ? (c.root + k - 1) % n : (c.root + k) % n;
        count_link(q, from, (from + 1) % n, s);
      }
      return;
    default: return;
  }
}

// When every one of the calls could start: the last rank's stream sets the pace.
double joint_start(const Clique& q, const std::vector<const Call*>& calls) {
  double start = 0;
  for (const Call* c : calls)
    start = std::max({start, c->issued_s, DeviceClock::of(q.devices[c->rank]).earliest_start(c->stream)});
  return start;
}

// Puts the calls on their streams, all starting together (at `start`, or when the
// last of them could).
void place(const Clique& q, const std::vector<const Call*>& calls, const WorkTime& t, const std::string& name,
           const nlohmann::json& args, double start = -1) {
  if (start < 0) start = joint_start(q, calls);
  for (const Call* c : calls) {
    TimelineEvent ev;
    ev.name = name;
    ev.kind = WorkKind::Collective;
    ev.duration_s = t.seconds;
    ev.args = args;
    ev.args["rank"] = c->rank;
    ev.args["bound"] = t.bound;
    if (!t.sentence.empty()) ev.args["time"] = t.sentence;
    DeviceClock::of(q.devices[c->rank]).enqueue(c->stream, std::move(ev), start);
  }
}

// What a rank's call reads and writes: bytes in its send and receive buffers, and
// whether it reads or writes them at all (broadcast reads only the root's, reduce
// writes only the root's).
struct Extent {
  std::size_t in = 0, out = 0;
  bool reads = true, writes = true;
};

Extent extent(const Call& c, int n) {
  const bool all_gather = c.func == Func::all_gather, scatter = c.func == Func::reduce_scatter;
  return {bytes_of(c, scatter ? c.count * n : c.count), bytes_of(c, all_gather ? c.count * n : c.count),
          c.func != Func::broadcast || c.rank == c.root, c.func != Func::reduce || c.rank == c.root};
}

// NCCL_ALGO=Tree (NCCL's variable: its tuner otherwise picks ring or tree by size and
// topology): all-reduces add in the double binary tree's order. simtlab's default is
// the ring, which its collective clock prices; NCCL allows tree for all-reduce only.
bool tree_requested() {
  const char* v = std::getenv("NCCL_ALGO");
  if (!v || *v == '^') return false;
  std::string s(v);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return s.find("tree") != std::string::npos && s.find("ring") == std::string::npos;
}

// The ranks of the clique grouped by the node their GPU sits in, each in rank order.
std::vector<std::vector<int>> rank_nodes(const Clique& q) {
  std::map<int, std::vector<int>> by_node;
  for (int r = 0; r < q.nranks; ++r) by_node[node_of(q.devices[r])].push_back(r);
  std::vector<std::vector<int>> nodes;
  for (auto& [node, ranks] : by_node) nodes.push_back(std::move(ranks));
  return nodes;
}

void apply(const Clique& q, const Call& c0, const RankBuffers& b) {
  if (c0.count == 0) return;
  switch (c0.func) {
    case Func::all_reduce:
      if (tree_requested()) return tree_all_reduce(b, c0.count, c0.type, c0.op, rank_nodes(q));
      return ring_all_reduce(b, c0.count, c0.type, c0.op);
    case Func::reduce_scatter: return ring_reduce_scatter(b, c0.count, c0.type, c0.op);
    case Func::reduce: return ring_reduce(b, c0.count, c0.type, c0.op, c0.root);
    case Func::broadcast: return ring_broadcast(b, c0.count, c0.type, c0.root);
    case Func::all_gather: return ring_all_gather(b, c0.count, c0.type);
    default: return;
  }
}

// Counts the links, times the collective and puts it on the (local) ranks' streams.
void finish_collective(Clique& q, const std::vector<const Call*>& calls, double start = -1) {
  const Call& c0 = *calls[0];
  const int n = q.nranks;
  if (n > 1) count_links(q, c0);
  WorkTime t;
  if (const TimeModel* m = DeviceClock::model())
    t = m->collective(model_op(c0.func), static_cast<std::size_t>(collective_bytes(c0, n)), q.devices);
  nlohmann::json args = {{"count", c0.count}, {"type", type_name(c0.type)}, {"bytes", collective_bytes(c0, n)}, {"ranks", n}};
  if (c0.func != Func::broadcast && c0.func != Func::all_gather) args["op"] = op_name(c0.op);
  if (c0.func == Func::all_reduce) args["algorithm"] = tree_requested() ? "Tree" : "Ring";
  place(q, calls, t, func_name(c0.func), args, start);
}

void run_collective(Clique& q, const std::vector<const Call*>& calls) {
  const int n = q.nranks;
  RankBuffers b;
  for (const Call* c : calls) {
    const Extent e = extent(*c, n);
    if (e.reads) before_touching(c->send, e.in, false);
    if (e.writes) before_touching(c->recv, e.out, true);
    b.send.push_back(e.reads ? host_view(c->send) : nullptr);
    b.recv.push_back(e.writes ? host_view(c->recv) : nullptr);
  }
  apply(q, *calls[0], b);
  finish_collective(q, calls);
}

CallSignature signature_of(const Call& c) {
  return {static_cast<std::int32_t>(c.func), static_cast<std::int32_t>(c.type), static_cast<std::int32_t>(c.op),
          c.root, c.count};
}

std::string describe(const CallSignature& s) {
  return fmt::format("{}(count {}, {}, {}, root {})", func_name(static_cast<Func>(s.func)), s.count,
                     type_name(static_cast<DataType>(s.type)), op_name(static_cast<RedOp>(s.op)), s.root);
}

// Why collective number `k` cannot run: two ranks called different things.
std::string mismatch(std::uint64_t k, int rank_a, const CallSignature& a, int rank_b, const CallSignature& b) {
  return fmt::format("collective #{} does not match across ranks: rank {} called {} but rank {} called {}; every rank "
                     "must make the same collectives in the same order",
                     k, rank_a, describe(a), rank_b, describe(b));
}

// Polls until every rank has read collective `k` (its files may then go); the peers
// are waiting in the same place, so this is short unless one of them died.
void wait_all_consumed(Clique& q, std::uint64_t k) {
  for (int spin = 0; !q.remote->all_consumed(k); ++spin) {
    if (spin % 1000 == 999)
      if (std::string why = q.remote->check_peers(); !why.empty()) {
        q.broken = why;
        return;
      }
    std::this_thread::sleep_for(std::chrono::microseconds(spin < 100 ? 10 : 200));
  }
}

// A collective some of whose ranks live in other processes: this process publishes
// its ranks' parts (once), and when every rank's part is there, computes the result
// from all of them in ring order, as every other process does. False: not yet.
bool run_distributed_collective(Clique& q, std::uint64_t seq, const std::vector<const Call*>& calls) {
  const int n = q.nranks;
  const std::uint64_t k = seq + 1;
  ProcessTransport& t = *q.remote;
  if (!q.published.contains(k)) {
    for (const Call* c : calls) {
      const Extent e = extent(*c, n);
      if (e.reads) before_touching(c->send, e.in, false);
      t.publish(k, c->rank, signature_of(*c), joint_start(q, {c}), e.reads ? host_view(c->send) : nullptr, e.reads ? e.in : 0);
    }
    q.published.insert(k);
  }
  if (!t.all_published(k)) return false;
  RankBuffers b;
  double start = 0;
  for (int r = 0; r < n; ++r) {
    const Contribution part = t.contribution(k, r, !local_rank(q, r));
    if (!(part.signature == signature_of(*calls[0]))) {
      q.broken = mismatch(k, calls[0]->rank, signature_of(*calls[0]), r, part.signature);
      return false;
    }
    start = std::max(start, part.ready_s);
    const auto mine = std::find_if(calls.begin(), calls.end(), [&](const Call* c) { return c->rank == r; });
    if (mine == calls.end()) {
      b.send.push_back(part.data);
      b.recv.push_back(nullptr);
      continue;
    }
    const Extent e = extent(**mine, n);
    if (e.writes) before_touching((*mine)->recv, e.out, true);
    b.send.push_back(e.reads ? host_view((*mine)->send) : nullptr);
    b.recv.push_back(e.writes ? host_view((*mine)->recv) : nullptr);
  }
  apply(q, *calls[0], b);
  finish_collective(q, calls, start);
  for (const Call* c : calls) t.consumed(k, c->rank);
  wait_all_consumed(q, k);
  t.release(k);
  q.published.erase(k);
  ++q.remote_progress;
  return true;
}

// Every rank's process has joined (so it is known which ranks are this process's);
// the other processes' GPUs are filled in. Always true without other processes.
bool ready_to_run(Clique& q) {
  if (!q.remote) return true;
  if (!q.remote->all_joined()) return false;
  for (int r = 0; r < q.nranks; ++r) {
    if (!local_rank(q, r)) q.devices[r] = q.remote->device_of(r);
    for (int s = 0; s < r && q.broken.empty(); ++s)
      if (q.devices[s] == q.devices[r])
        q.broken = fmt::format("ranks {} and {} both use GPU {} (NCCL: duplicate GPU detected); each rank's process "
                               "must call cudaSetDevice (e.g. with $LOCAL_RANK) before ncclCommInitRank",
                               s, r, q.devices[r]);
  }
  return q.broken.empty();
}

// The collectives whose every rank has called them run, in the order they were made.
void run_ready_collectives(Clique& q) {
  while (!q.collectives.empty() && q.broken.empty() && ready_to_run(q)) {
    auto& slot = q.collectives.begin()->second;
    std::vector<const Call*> calls;
    for (const auto& c : slot)
      if (c) calls.push_back(&*c);
    if (static_cast<int>(calls.size()) < (q.remote ? q.remote->local_count() : q.nranks)) return;
    for (const Call* c : calls) {
      const Call& a = *calls[0];
      if (!(signature_of(*c) == signature_of(a))) {
        q.broken = mismatch(q.collectives.begin()->first + 1, a.rank, signature_of(a), c->rank, signature_of(*c));
        return;
      }
    }
    if (q.remote) {
      if (!run_distributed_collective(q, q.collectives.begin()->first, calls)) return;
    } else {
      run_collective(q, calls);
    }
    q.collectives.erase(q.collectives.begin());
  }
}

// NCCL's point-to-point sends are eager up to the connection's buffer: the sender's
// kernel writes into the FIFO between the two GPUs (NCCL_BUFFSIZE, 4 MiB by default:
// DEFAULT_BUFFSIZE in NCCL's src/init.cc; NCCL_STEPS slots of it) and returns without
// waiting for the receiver, whose kernel copies out when its stream reaches the
// receive. A larger message fills the FIFO and the sender waits for the receiver to
// drain it: both sides then start together. Without this a pipeline stage that
// sends its activations would stall until the next stage got round to receiving.
constexpr std::size_t kEagerSendBytes = std::size_t(4) << 20;
bool eager_send(std::size_t bytes) { return bytes <= kEagerSendBytes; }

void run_ready_p2p(Clique& q, int from, int to) {
  auto& s = q.sends[{from, to}];
  auto& r = q.recvs[{from, to}];
  while (!s.empty() && !r.empty() && q.broken.empty()) {
    const Call& send = s.front();
    const Call& recv = r.front();
    if (bytes_of(send, send.count) != bytes_of(recv, recv.count)) {
      q.broken = fmt::format("rank {} sends {} x {} to rank {}, which receives {} x {}: the sizes must match", from,
                             send.count, type_name(send.type), to, recv.count, type_name(recv.type));
      return;
    }
    const std::size_t bytes = bytes_of(send, send.count);
    if (bytes > 0) {
      before_touching(send.send, bytes, false);
      before_touching(recv.recv, bytes, true);
      std::memmove(host_view(recv.recv), host_view(send.send), bytes);
      add_link_bytes(q.devices[from], q.devices[to], static_cast<double>(bytes));
    }
    WorkTime t;
    if (const TimeModel* m = DeviceClock::model(); m && from != to) t = m->peer_copy(bytes, q.devices[from], q.devices[to]);
    // The receive starts when both streams are ready; an eager send when its own is.
    const double start = joint_start(q, {&send, &recv});
    place(q, {&send}, t, "ncclSend", {{"bytes", bytes}, {"peer", to}}, eager_send(bytes) ? joint_start(q, {&send}) : start);
    place(q, {&recv}, t, "ncclRecv", {{"bytes", bytes}, {"peer", from}}, start);
    s.pop_front();
    r.pop_front();
  }
}

// A message to or from a rank of another process: posted now (a send), completed
// when the other side has answered (progress_remote_p2p).
void enqueue_remote_p2p(Clique& q, const Call& c) {
  const std::size_t bytes = bytes_of(c, c.count);
  if (c.func == Func::send) {
    const std::uint64_t n = q.messages_sent[{c.rank, c.peer}]++;
    before_touching(c.send, bytes, false);
    const double ready = joint_start(q, {&c});
    q.remote->post_send(c.rank, c.peer, n, ready, bytes ? host_view(c.send) : nullptr, bytes);
    q.remote_sends.push_back({c, n, ready});
  } else {
    const std::uint64_t n = q.messages_received[{c.peer, c.rank}]++;
    q.remote_recvs.push_back({c, n, joint_start(q, {&c})});
  }
}

void place_message(Clique& q, const Call& c, double start, std::size_t bytes) {
  const int from = c.func == Func::send ? c.rank : c.peer, to = c.func == Func::send ? c.peer : c.rank;
  WorkTime t;
  if (const TimeModel* m = DeviceClock::model()) t = m->peer_copy(bytes, q.devices[from], q.devices[to]);
  place(q, {&c}, t, func_name(c.func), {{"bytes", bytes}, {"peer", c.peer}}, start);
}

void progress_remote_p2p(Clique& q) {
  std::erase_if(q.remote_recvs, [&](const Clique::Message& m) {
    const std::size_t bytes = bytes_of(m.call, m.call.count);
    if (bytes) before_touching(m.call.recv, bytes, true);
    double start = 0;
    std::string error;
    if (!q.remote->try_receive(m.call.peer, m.call.rank, m.n, m.ready_s, bytes ? host_view(m.call.recv) : nullptr,
                               bytes, start, error))
      return false;
    if (!error.empty()) q.broken = error;
    else place_message(q, m.call, start, bytes);
    ++q.remote_progress;
    return true;
  });
  std::erase_if(q.remote_sends, [&](const Clique::Message& m) {
    double start = 0;
    std::string error;
    if (!q.remote->try_complete_send(m.call.rank, m.call.peer, m.n, start, error)) return false;
    const std::size_t bytes = bytes_of(m.call, m.call.count);
    if (!error.empty()) {
      q.broken = error;
    } else {
      place_message(q, m.call, eager_send(bytes) ? m.ready_s : start, bytes);
      count_link(q, m.call.rank, m.call.peer, static_cast<double>(bytes));
    }
    ++q.remote_progress;
    return true;
  });
}

// Everything of this process's that waits on other processes, moved on where it can.
void progress_remote(Clique& q) {
  if (!q.remote) return;
  run_ready_collectives(q);
  if (q.broken.empty()) progress_remote_p2p(q);
}

bool remote_p2p(const Clique& q, const Call& c) {
  return q.remote && (c.func == Func::send || c.func == Func::recv) && !local_rank(q, c.peer);
}

}  // namespace

std::string func_name(Func f) {
  static const char* names[] = {"ncclAllReduce", "ncclBroadcast", "ncclReduce", "ncclAllGather",
                                "ncclReduceScatter", "ncclSend", "ncclRecv"};
  return names[static_cast<int>(f)];
}

std::shared_ptr<Clique> new_clique(int nranks) {
  auto q = std::make_shared<Clique>();
  q->nranks = nranks;
  q->devices.assign(static_cast<std::size_t>(nranks), -1);
  q->next_seq.assign(static_cast<std::size_t>(nranks), 0);
  return q;
}

std::shared_ptr<Clique> clique_for_id(const std::string& id, int nranks, std::string& error) {
  auto& weak = registry()[id];
  if (auto q = weak.lock()) {
    if (q->nranks != nranks)
      error = fmt::format("this ncclUniqueId's communicator has {} ranks; a rank asked for {}", q->nranks, nranks);
    return q;
  }
  auto q = new_clique(nranks);
  if (ProcessTransport::enabled()) {
    q->remote = ProcessTransport::open(id, nranks, error);
    if (!q->remote) return nullptr;
  }
  weak = q;
  return q;
}

std::string join(Clique& q, int rank, int device) {
  if (rank < 0 || rank >= q.nranks) return fmt::format("rank {} is not in 0..{}", rank, q.nranks - 1);
  if (q.devices[rank] >= 0) return fmt::format("rank {} of this communicator was initialised twice", rank);
  if (q.remote)
    if (std::string e = q.remote->join(rank, device); !e.empty()) return e;
  for (int r = 0; r < q.nranks; ++r)
    if (q.devices[r] == device)
      return fmt::format("ranks {} and {} would both use GPU {} (NCCL: duplicate GPU detected); call cudaSetDevice "
                         "before ncclCommInitRank",
                         r, rank, device);
  q.devices[rank] = device;
  return "";
}

int clique_size(const Clique& q) { return q.nranks; }

void note_driven_by_this_thread(const Clique& q, int rank) { t_driven.insert({&q, rank}); }

std::string check_call(const Call& c, int device) {
  const Clique& q = *c.clique;
  if (!q.broken.empty()) return "the communicator cannot be used any more: " + q.broken;
  const bool rooted = c.func == Func::broadcast || c.func == Func::reduce;
  if (rooted && (c.root < 0 || c.root >= q.nranks))
    return fmt::format("{}: root {} is not a rank of this {}-rank communicator", func_name(c.func), c.root, q.nranks);
  if ((c.func == Func::send || c.func == Func::recv) && (c.peer < 0 || c.peer >= q.nranks))
    return fmt::format("{}: peer {} is not a rank of this {}-rank communicator", func_name(c.func), c.peer, q.nranks);
  const int sd = stream_device(c.stream);
  if (c.stream && sd != device)
    return sd < 0 ? fmt::format("{}: the stream was never created or was destroyed", func_name(c.func))
                  : fmt::format("{}: rank {} runs on GPU {} but its stream belongs to GPU {}", func_name(c.func), c.rank,
                                device, sd);
  const int n = q.nranks;
  auto need = [&](const void* p, std::size_t count, const char* what) -> std::string {
    if (count == 0) return "";
    const std::size_t bytes = bytes_of(c, count);
    const Allocation* a = GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(p), bytes);
    if (!a)
      return fmt::format("{}: rank {}'s {} ({} bytes at {}) is not inside one device allocation", func_name(c.func),
                         c.rank, what, bytes, p);
    if (a->device != device)
      return fmt::format("{}: rank {}'s {} is memory of GPU {}, but the rank runs on GPU {}", func_name(c.func), c.rank,
                         what, a->device, device);
    return "";
  };
  const bool scatter = c.func == Func::reduce_scatter, gather = c.func == Func::all_gather;
  std::string e;
  if (c.func != Func::recv && (c.func != Func::broadcast || c.rank == c.root))
    e = need(c.send, scatter ? c.count * n : c.count, "sendbuff");
  if (e.empty() && c.func != Func::send && (c.func != Func::reduce || c.rank == c.root))
    e = need(c.recv, gather ? c.count * n : c.count, "recvbuff");
  return e;
}

void group_start() { ++t_group_depth; }
bool in_group() { return t_group_depth > 0; }

namespace {

// The ranks a queued call still waits for.
std::vector<int> missing_ranks(const Clique& q, const Call& c) {
  std::vector<int> out;
  if (c.func == Func::send || c.func == Func::recv) {
    const auto key = c.func == Func::send ? std::pair{c.rank, c.peer} : std::pair{c.peer, c.rank};
    const auto& other = c.func == Func::send ? q.recvs : q.sends;
    auto it = other.find(key);
    if (it == other.end() || it->second.empty()) out.push_back(c.peer);
    return out;
  }
  if (q.collectives.empty()) return out;
  const auto& slot = q.collectives.begin()->second;
  for (int r = 0; r < q.nranks; ++r)
    if (!slot[r]) out.push_back(r);
  return out;
}

bool done(const Clique& q, const Call& c, std::uint64_t seq) {
  if (remote_p2p(q, c)) {
    const auto& pending = c.func == Func::send ? q.remote_sends : q.remote_recvs;
    return std::none_of(pending.begin(), pending.end(), [&](const Clique::Message& m) { return m.call.id == c.id; });
  }
  if (c.func == Func::send) {
    auto it = q.sends.find({c.rank, c.peer});
    return it == q.sends.end() || std::none_of(it->second.begin(), it->second.end(),
                                               [&](const Call& x) { return x.id == c.id; });
  }
  if (c.func == Func::recv) {
    auto it = q.recvs.find({c.peer, c.rank});
    return it == q.recvs.end() || std::none_of(it->second.begin(), it->second.end(),
                                               [&](const Call& x) { return x.id == c.id; });
  }
  return !q.collectives.contains(seq);
}

// Enqueues a call in its clique and runs what became ready; returns its number.
std::uint64_t enqueue(const Call& c) {
  Clique& q = *c.clique;
  t_driven.insert({&q, c.rank});
  if (remote_p2p(q, c)) {
    enqueue_remote_p2p(q, c);
    return 0;
  }
  if (c.func == Func::send) {
    q.sends[{c.rank, c.peer}].push_back(c);
    run_ready_p2p(q, c.rank, c.peer);
    return 0;
  }
  if (c.func == Func::recv) {
    q.recvs[{c.peer, c.rank}].push_back(c);
    run_ready_p2p(q, c.peer, c.rank);
    return 0;
  }
  const std::uint64_t seq = q.next_seq[c.rank]++;
  auto& slot = q.collectives[seq];
  slot.resize(static_cast<std::size_t>(q.nranks));
  slot[c.rank] = c;
  run_ready_collectives(q);
  return seq;
}

constexpr auto kStallLimit = std::chrono::seconds(60);

// Waits on the runtime's progress signal, the runtime lock released meanwhile (the
// caller's RuntimeLock owns it). True when another thread signalled.
bool wait_for_progress(std::chrono::microseconds timeout) {
  std::unique_lock<std::recursive_mutex> lock(runtime_mutex(), std::adopt_lock);
  const bool woke = progress().wait_for(lock, timeout) == std::cv_status::no_timeout;
  lock.release();
  return woke;
}

// Another process's rank may compute for minutes before it calls: no time limit,
// but a line every minute, and an error as soon as a rank's process has ended.
Outcome wait_remote(Clique& q, const Call& c, std::chrono::steady_clock::time_point since, int& polls) {
  if (++polls % 500 == 0) {
    if (std::string why = q.remote->check_peers(); !why.empty()) {
      q.broken = fmt::format("{} of rank {} cannot complete: {}", func_name(c.func), c.rank, why);
      return fail(5, q.broken);
    }
    const auto waited = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - since);
    if (waited.count() >= 60 && polls % 30000 == 0)
      fmt::print(stderr, "simt: nccl: {} of rank {} has waited {} s for the ranks of other processes\n",
                 func_name(c.func), c.rank, waited.count());
  }
  wait_for_progress(std::chrono::microseconds(polls < 200 ? 50 : 2000));
  return {};
}

// Ranks of other processes must all have joined before a call can tell which of its
// peers are this process's.
Outcome wait_joined(Clique& q, const Call& c) {
  const auto since = std::chrono::steady_clock::now();
  for (int polls = 0; q.remote && !q.remote->all_joined();)
    if (Outcome o = wait_remote(q, c, since, polls); o.code) return o;
  return {};
}

// Waits until every call has run, or says why it never will.
Outcome wait_for(const std::vector<std::pair<Call, std::uint64_t>>& submitted) {
  progress().notify_all();
  auto last_progress = std::chrono::steady_clock::now();
  for (const auto& [c, seq] : submitted) {
    Clique& q = *c.clique;
    const auto since = std::chrono::steady_clock::now();
    int polls = 0;
    while (q.remote && q.broken.empty() && (progress_remote(q), !done(q, c, seq)))
      if (Outcome o = wait_remote(q, c, since, polls); o.code) return o;
    while (!done(q, c, seq)) {
      if (!q.broken.empty()) return fail(5, q.broken);
      const std::vector<int> missing = missing_ranks(q, c);
      const bool all_mine = std::all_of(missing.begin(), missing.end(),
                                        [&](int r) { return t_driven.contains({&q, r}); });
      if (missing.empty() || all_mine) {
        std::string who;
        for (int r : missing) who += (who.empty() ? "" : ", ") + std::to_string(r);
        q.broken = fmt::format("{} of rank {} never completed", func_name(c.func), c.rank);
        return fail(5, fmt::format(
                           "{} of rank {} waits for rank{} {}, which this host thread also drives: NCCL would hang "
                           "here. Issue the calls of every rank between ncclGroupStart() and ncclGroupEnd() "
                           "(docs/multi-gpu.md)",
                           func_name(c.func), c.rank, missing.size() == 1 ? "" : "s", who));
      }
      if (wait_for_progress(std::chrono::seconds(1))) last_progress = std::chrono::steady_clock::now();
      if (std::chrono::steady_clock::now() - last_progress > kStallLimit)
        return fail(5, fmt::format("{} of rank {} waited {} s for the other ranks; none called it", func_name(c.func),
                                   c.rank, kStallLimit.count()));
    }
  }
  return {};
}

Outcome submit_all(std::vector<Call> calls) {
  if (calls.empty()) return {};
  if (const TimeModel* m = DeviceClock::model()) DeviceClock::host_spends(m->collective_issue_s());
  static std::uint64_t next_id = 0;
  std::vector<std::pair<Call, std::uint64_t>> submitted;
  for (const Call& c : calls)
    if (Outcome o = wait_joined(*c.clique, c); o.code) return o;
  for (Call& c : calls) {
    c.issued_s = DeviceClock::host_time();
    c.id = ++next_id;
    submitted.emplace_back(c, enqueue(c));
  }
  return wait_for(submitted);
}

}  // namespace

Outcome group_end() {
  if (t_group_depth == 0) return fail(5, "ncclGroupEnd without ncclGroupStart");
  if (--t_group_depth > 0) return {};
  return submit_all(std::exchange(t_group_calls, {}));
}

Outcome submit(Call call) {
  if (t_group_depth > 0) {
    t_driven.insert({call.clique.get(), call.rank});
    t_group_calls.push_back(std::move(call));
    return {};
  }
  return submit_all({std::move(call)});
}

std::string last_error() { return t_last_error; }

}  // namespace simt::nccl
