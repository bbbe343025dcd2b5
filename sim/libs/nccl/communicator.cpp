#include "sim/libs/nccl/communicator.hpp"

#include "sim/clock/device_clock.hpp"
#include "sim/clock/link_traffic.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/exec/devices.hpp"
#include "sim/libs/nccl/ring_order.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/shortcuts/repeat_launch.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <map>
#include <optional>
#include <set>

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
void count_ring_links(const Clique& q, double per_link) {
  for (int r = 0; r < q.nranks; ++r) add_link_bytes(q.devices[r], q.devices[(r + 1) % q.nranks], per_link);
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
        add_link_bytes(q.devices[from], q.devices[(from + 1) % n], s);
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

void run_collective(Clique& q, const std::vector<const Call*>& calls) {
  const Call& c0 = *calls[0];
  const int n = q.nranks;
  RankBuffers b;
  for (const Call* c : calls) {
    const bool all_gather = c->func == Func::all_gather, scatter = c->func == Func::reduce_scatter;
    const std::size_t in = bytes_of(*c, scatter ? c->count * n : c->count);
    const std::size_t out = bytes_of(*c, all_gather ? c->count * n : c->count);
    const bool reads = c->func != Func::broadcast || c->rank == c->root;
    const bool writes = c->func != Func::reduce || c->rank == c->root;
    if (reads) before_touching(c->send, in, false);
    if (writes) before_touching(c->recv, out, true);
    b.send.push_back(reads ? host_view(c->send) : nullptr);
    b.recv.push_back(writes ? host_view(c->recv) : nullptr);
  }
  if (c0.count > 0) switch (c0.func) {
      case Func::all_reduce: ring_all_reduce(b, c0.count, c0.type, c0.op); break;
      case Func::reduce_scatter: ring_reduce_scatter(b, c0.count, c0.type, c0.op); break;
      case Func::reduce: ring_reduce(b, c0.count, c0.type, c0.op, c0.root); break;
      case Func::broadcast: ring_broadcast(b, c0.count, c0.type, c0.root); break;
      case Func::all_gather: ring_all_gather(b, c0.count, c0.type); break;
      default: break;
    }
  if (n > 1) count_links(q, c0);
  WorkTime t;
  if (const TimeModel* m = DeviceClock::model())
    t = m->collective(model_op(c0.func), static_cast<std::size_t>(collective_bytes(c0, n)), q.devices);
  nlohmann::json args = {{"count", c0.count}, {"type", type_name(c0.type)}, {"bytes", collective_bytes(c0, n)}, {"ranks", n}};
  if (c0.func != Func::broadcast && c0.func != Func::all_gather) args["op"] = op_name(c0.op);
  place(q, calls, t, func_name(c0.func), args);
}

// The collectives whose every rank has called them run, in the order they were made.
void run_ready_collectives(Clique& q) {
  while (!q.collectives.empty() && q.broken.empty()) {
    auto& slot = q.collectives.begin()->second;
    std::vector<const Call*> calls;
    for (const auto& c : slot)
      if (c) calls.push_back(&*c);
    if (static_cast<int>(calls.size()) < q.nranks) return;
    for (const Call* c : calls) {
      const Call& a = *calls[0];
      if (c->func != a.func || c->count != a.count || c->type != a.type || c->op != a.op || c->root != a.root) {
        q.broken = fmt::format(
            "collective #{} does not match across ranks: rank {} called {}(count {}, {}, {}, root {}) but rank {} "
            "called {}(count {}, {}, {}, root {}); every rank must make the same collectives in the same order",
            q.collectives.begin()->first + 1, a.rank, func_name(a.func), a.count, type_name(a.type), op_name(a.op),
            a.root, c->rank, func_name(c->func), c->count, type_name(c->type), op_name(c->op), c->root);
        return;
      }
    }
    run_collective(q, calls);
    q.collectives.erase(q.collectives.begin());
  }
}

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
    // The receive completes with the send: both start when both streams are ready.
    const double start = joint_start(q, {&send, &recv});
    place(q, {&send}, t, "ncclSend", {{"bytes", bytes}, {"peer", to}}, start);
    place(q, {&recv}, t, "ncclRecv", {{"bytes", bytes}, {"peer", from}}, start);
    s.pop_front();
    r.pop_front();
  }
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
  weak = q;
  return q;
}

std::string join(Clique& q, int rank, int device) {
  if (rank < 0 || rank >= q.nranks) return fmt::format("rank {} is not in 0..{}", rank, q.nranks - 1);
  if (q.devices[rank] >= 0) return fmt::format("rank {} of this communicator was initialised twice", rank);
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

// Waits until every call has run, or says why it never will.
Outcome wait_for(const std::vector<std::pair<Call, std::uint64_t>>& submitted) {
  progress().notify_all();
  auto last_progress = std::chrono::steady_clock::now();
  for (const auto& [c, seq] : submitted) {
    Clique& q = *c.clique;
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
      std::unique_lock<std::recursive_mutex> lock(runtime_mutex(), std::adopt_lock);
      const bool woke = progress().wait_for(lock, std::chrono::seconds(1)) == std::cv_status::no_timeout;
      lock.release();  // the caller's RuntimeLock still owns it
      if (woke) last_progress = std::chrono::steady_clock::now();
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
