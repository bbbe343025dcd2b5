#include "sim/clock/device_clock.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace simt {

const char* work_kind_name(WorkKind k) {
  switch (k) {
    case WorkKind::Kernel: return "kernel";
    case WorkKind::CopyHostToDevice: return "memcpy HtoD";
    case WorkKind::CopyDeviceToHost: return "memcpy DtoH";
    case WorkKind::CopyDeviceToDevice: return "memcpy DtoD";
    case WorkKind::CopyHostToHost: return "memcpy HtoH";
    case WorkKind::Memset: return "memset";
  }
  return "?";
}

DeviceClock& DeviceClock::instance() {
  static DeviceClock clock;
  return clock;
}

int DeviceClock::add_stream(StreamHandle s, bool blocking) {
  if (!s) throw std::invalid_argument("the legacy default stream always exists");
  Stream st{next_id_++, blocking, host_};
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
  double t = std::max(host_, st.ready);
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
    default: return compute_free_;
  }
}

const TimelineEvent& DeviceClock::enqueue(StreamHandle s, TimelineEvent ev) {
  if (!(ev.duration_s >= 0)) throw std::invalid_argument(fmt::format("negative duration for {}", ev.name));
  double& engine = engine_for(ev.kind);
  ev.start_s = std::max(earliest_start(s), engine);
  ev.stream = stream(s).id;
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

void DeviceClock::host_waits_until(double t) { host_ = std::max(host_, t); }

double DeviceClock::stream_done(StreamHandle s) const { return std::max(host_, stream(s).ready); }

double DeviceClock::device_done() const {
  double t = std::max(host_, legacy_.ready);
  for (const auto& [h, st] : streams_) t = std::max(t, st.ready);
  return t;
}

void DeviceClock::reset() {
  legacy_ = {0, true, 0};
  streams_.clear();
  next_id_ = 1;
  host_ = compute_free_ = h2d_free_ = d2h_free_ = host_copy_free_ = 0;
  events_.clear();
}

nlohmann::json chrome_trace(const DeviceClock& clock) {
  using nlohmann::json;
  json events = json::array();
  std::vector<int> streams;
  for (const TimelineEvent& e : clock.events()) {
    if (std::find(streams.begin(), streams.end(), e.stream) == streams.end()) streams.push_back(e.stream);
    events.push_back({{"name", e.name},
                      {"cat", work_kind_name(e.kind)},
                      {"ph", "X"},
                      {"pid", 0},
                      {"tid", e.stream},
                      {"ts", e.start_s * 1e6},
                      {"dur", e.duration_s * 1e6},
                      {"args", e.args}});
  }
  std::sort(streams.begin(), streams.end());
  const std::string device = clock.model() ? clock.model()->device() : std::string("unpriced");
  json meta = json::array();
  meta.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"args", {{"name", "simulated " + device}}}});
  for (int s : streams)
    meta.push_back({{"name", "thread_name"},
                    {"ph", "M"},
                    {"pid", 0},
                    {"tid", s},
                    {"args", {{"name", s == 0 ? std::string("stream 0 (legacy default)") : fmt::format("stream {}", s)}}}});
  for (json& e : events) meta.push_back(std::move(e));
  return {{"traceEvents", meta}, {"displayTimeUnit", "ns"}, {"otherData", {{"device", device}, {"source", "simtlab simulated clock"}}}};
}

}  // namespace simt
