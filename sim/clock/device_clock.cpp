#include "sim/clock/device_clock.hpp"

#include "sim/exec/devices.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <stdexcept>

namespace simt {

namespace {
// Each host thread's own time: a thread that waits for its GPU does not hold back
// the threads driving the others.
thread_local double t_host = 0;

std::unique_ptr<TimeModel>& shared_model() {
  static std::unique_ptr<TimeModel> m;
  return m;
}
}  // namespace

const char* work_kind_name(WorkKind k) {
  switch (k) {
    case WorkKind::Kernel: return "kernel";
    case WorkKind::CopyHostToDevice: return "memcpy HtoD";
    case WorkKind::CopyDeviceToHost: return "memcpy DtoH";
    case WorkKind::CopyDeviceToDevice: return "memcpy DtoD";
    case WorkKind::CopyHostToHost: return "memcpy HtoH";
    case WorkKind::Memset: return "memset";
    case WorkKind::CopyPeer: return "memcpy PtoP";
    case WorkKind::Collective: return "nccl";
  }
  return "?";
}

// A deque: clocks never move, so references stay valid as devices are first used.
namespace {
std::deque<DeviceClock>& clocks() {
  static std::deque<DeviceClock> c;
  return c;
}
}  // namespace

DeviceClock& DeviceClock::of(int device) {
  if (device < 0 || device >= kMaxDevices) throw std::invalid_argument(fmt::format("no simulated device {}", device));
  auto& all = clocks();
  while (static_cast<int>(all.size()) <= device) all.emplace_back(static_cast<int>(all.size()));
  return all[static_cast<std::size_t>(device)];
}

DeviceClock& DeviceClock::instance() { return of(current_device()); }

std::vector<const DeviceClock*> DeviceClock::used() {
  std::vector<const DeviceClock*> out;
  for (const DeviceClock& c : clocks())
    if (!c.events_.empty() || !c.streams_.empty() || c.device_ == 0) out.push_back(&c);
  return out;
}

void DeviceClock::set_model(std::unique_ptr<TimeModel> m) { shared_model() = std::move(m); }
const TimeModel* DeviceClock::model() { return shared_model().get(); }
double DeviceClock::host_time() { return t_host; }
void DeviceClock::set_host_time(double t) { t_host = t; }

int DeviceClock::add_stream(StreamHandle s, bool blocking) {
  if (!s) throw std::invalid_argument("the legacy default stream always exists");
  Stream st{next_id_++, blocking, t_host};
  streams_[s] = st;
  return st.id;
}

void DeviceClock::remove_stream(StreamHandle s) { streams_.erase(s); }

bool DeviceClock::has_stream(StreamHandle s) const { return !s || streams_.contains(s); }

DeviceClock::Stream& DeviceClock::stream(StreamHandle s) {
  return const_cast<Stream&>(static_cast<const DeviceClock*>(this)->stream(s));
}

const DeviceClock::Stream& DeviceClock::stream(StreamHandle s) const {
  if (!s) return legacy_;
  auto it = streams_.find(s);
  if (it == streams_.end()) throw std::invalid_argument(fmt::format("unknown stream {}", s));
  return it->second;
}

int DeviceClock::stream_id(StreamHandle s) const { return stream(s).id; }

// The implicit synchronisation of the legacy default stream: it waits for every
// blocking stream, and every blocking stream waits for it. Nothing starts before
// the host issued it.
double DeviceClock::earliest_start(StreamHandle s) const {
  const Stream& st = stream(s);
  double t = std::max(t_host, st.ready);
  if (!s) {
    for (const auto& [h, other] : streams_)
      if (other.blocking) t = std::max(t, other.ready);
  } else if (st.blocking) {
    t = std::max(t, legacy_.ready);
  }
  return t;
}

// Kernels, memsets and device-to-device copies share the compute engine (they
// do not overlap one another); each copy direction has its own engine.
double& DeviceClock::engine_for(WorkKind k) {
  switch (k) {
    case WorkKind::CopyHostToDevice: return h2d_free_;
    case WorkKind::CopyDeviceToHost: return d2h_free_;
    case WorkKind::CopyHostToHost: return host_copy_free_;
    case WorkKind::CopyPeer: return peer_free_;
    case WorkKind::Collective: return comm_free_;
    default: return compute_free_;
  }
}

const TimelineEvent& DeviceClock::enqueue(StreamHandle s, TimelineEvent ev, double not_before) {
  if (!(ev.duration_s >= 0)) throw std::invalid_argument(fmt::format("negative duration for {}", ev.name));
  double& engine = engine_for(ev.kind);
  ev.start_s = std::max({earliest_start(s), engine, not_before});
  ev.stream = stream(s).id;
  ev.device = device_;
  engine = ev.end_s();
  stream(s).ready = ev.end_s();
  events_.push_back(std::move(ev));
  return events_.back();
}

double DeviceClock::record(StreamHandle s) {
  double t = earliest_start(s);
  stream(s).ready = t;
  return t;
}

void DeviceClock::stream_waits_until(StreamHandle s, double t) {
  Stream& st = stream(s);
  st.ready = std::max(st.ready, t);
}

void DeviceClock::host_waits_until(double t) { t_host = std::max(t_host, t); }
void DeviceClock::host_spends(double s) { t_host += s; }

double DeviceClock::stream_done(StreamHandle s) const { return std::max(t_host, stream(s).ready); }

double DeviceClock::device_done() const {
  double t = std::max(t_host, legacy_.ready);
  for (const auto& [h, st] : streams_) t = std::max(t, st.ready);
  return t;
}

void DeviceClock::reset() {
  legacy_ = {0, true, 0};
  streams_.clear();
  next_id_ = 1;
  t_host = compute_free_ = h2d_free_ = d2h_free_ = host_copy_free_ = peer_free_ = comm_free_ = 0;
  events_.clear();
}

nlohmann::json chrome_trace(const std::vector<const DeviceClock*>& clocks) {
  using nlohmann::json;
  const std::string device = DeviceClock::model() ? DeviceClock::model()->device() : std::string("unpriced");
  json meta = json::array(), events = json::array();
  for (const DeviceClock* clock : clocks) {
    const int pid = clock->device();
    std::vector<int> streams;
    for (const TimelineEvent& e : clock->events()) {
      if (std::find(streams.begin(), streams.end(), e.stream) == streams.end()) streams.push_back(e.stream);
      events.push_back({{"name", e.name},
                        {"cat", work_kind_name(e.kind)},
                        {"ph", "X"},
                        {"pid", pid},
                        {"tid", e.stream},
                        {"ts", e.start_s * 1e6},
                        {"dur", e.duration_s * 1e6},
                        {"args", e.args}});
    }
    std::sort(streams.begin(), streams.end());
    const std::string process = clocks.size() == 1 && pid == 0 ? "simulated " + device
                                                                 : fmt::format("GPU {} (simulated {})", pid, device);
    meta.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", process}}}});
    for (int s : streams)
      meta.push_back({{"name", "thread_name"},
                      {"ph", "M"},
                      {"pid", pid},
                      {"tid", s},
                      {"args", {{"name", s == 0 ? std::string("stream 0 (legacy default)") : fmt::format("stream {}", s)}}}});
  }
  for (json& e : events) meta.push_back(std::move(e));
  return {{"traceEvents", meta}, {"displayTimeUnit", "ns"}, {"otherData", {{"device", device}, {"source", "simtlab simulated clock"}}}};
}

}  // namespace simt
