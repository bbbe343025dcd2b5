// The simulated clock's stream rules (sim/clock/device_clock.hpp) on hand-made
// durations: the legacy default stream, non-blocking streams, the one compute
// engine, copy engines overlapping kernels, host waits, and the trace.
#include "sim/clock/device_clock.hpp"

#include <doctest/doctest.h>

namespace {

using simt::DeviceClock;
using simt::TimelineEvent;
using simt::WorkKind;

TimelineEvent work(const char* name, WorkKind kind, double seconds) {
  TimelineEvent e;
  e.name = name;
  e.kind = kind;
  e.duration_s = seconds;
  return e;
}

// A fresh clock for each test: the process-wide one is reset.
DeviceClock& fresh() {
  DeviceClock& c = DeviceClock::instance();
  c.reset();
  return c;
}

const int kS1 = 1, kS2 = 2;  // addresses standing for two streams
const void* s1 = &kS1;
const void* s2 = &kS2;

}  // namespace

TEST_CASE("work on one stream runs back to back; an event stamps the end of what came before") {
  DeviceClock& c = fresh();
  const double a = c.record(nullptr);
  c.enqueue(nullptr, work("k1", WorkKind::Kernel, 2e-6));
  c.enqueue(nullptr, work("k2", WorkKind::Kernel, 3e-6));
  const double b = c.record(nullptr);
  CHECK(a == 0);
  CHECK(b == doctest::Approx(5e-6));
  CHECK(c.events()[1].start_s == doctest::Approx(2e-6));
  CHECK(c.host_time() == 0);  // launches do not block the host
  c.host_waits_until(c.device_done());
  CHECK(c.host_time() == doctest::Approx(5e-6));
}

TEST_CASE("kernels of two streams share the compute engine; a copy overlaps them") {
  DeviceClock& c = fresh();
  c.add_stream(s1, true);
  c.add_stream(s2, true);
  c.enqueue(s1, work("k1", WorkKind::Kernel, 4e-6));
  c.enqueue(s2, work("k2", WorkKind::Kernel, 1e-6));
  c.enqueue(s2, work("copy", WorkKind::CopyHostToDevice, 10e-6));
  CHECK(c.events()[1].start_s == doctest::Approx(4e-6));   // after k1: no kernel overlap
  CHECK(c.events()[2].start_s == doctest::Approx(5e-6));   // after k2 on its stream
  c.enqueue(s1, work("k3", WorkKind::Kernel, 1e-6));
  CHECK(c.events()[3].start_s == doctest::Approx(5e-6));   // overlaps the copy of s2
  CHECK(c.events()[3].stream == 1);
  CHECK(c.events()[2].stream == 2);
}

TEST_CASE("the legacy default stream waits for blocking streams, not for non-blocking ones") {
  DeviceClock& c = fresh();
  c.add_stream(s1, true);
  c.add_stream(s2, false);
  c.enqueue(s1, work("copy1", WorkKind::CopyHostToDevice, 8e-6));
  c.enqueue(s2, work("copy2", WorkKind::CopyDeviceToHost, 20e-6));
  c.enqueue(nullptr, work("k", WorkKind::Kernel, 1e-6));
  CHECK(c.events()[2].start_s == doctest::Approx(8e-6));  // after s1's copy, not s2's
  // ...and a blocking stream's later work waits for the legacy stream's.
  c.enqueue(s1, work("k2", WorkKind::Kernel, 1e-6));
  CHECK(c.events()[3].start_s == doctest::Approx(9e-6));
}

TEST_CASE("cudaStreamWaitEvent joins timelines; nothing starts before the host issues it") {
  DeviceClock& c = fresh();
  c.add_stream(s1, false);
  c.add_stream(s2, false);
  c.enqueue(s1, work("copy", WorkKind::CopyHostToDevice, 7e-6));
  const double e = c.record(s1);
  c.stream_waits_until(s2, e);
  c.enqueue(s2, work("k", WorkKind::Kernel, 1e-6));
  CHECK(c.events()[1].start_s == doctest::Approx(7e-6));
  c.host_waits_until(100e-6);  // e.g. a synchronous copy the host waited for
  c.enqueue(s1, work("k2", WorkKind::Kernel, 1e-6));
  CHECK(c.events()[2].start_s == doctest::Approx(100e-6));
  CHECK_THROWS_AS(c.enqueue(&e, work("k3", WorkKind::Kernel, 1e-6)), std::invalid_argument);  // never created
}

TEST_CASE("the Chrome trace has one named track per stream and the work as complete events") {
  DeviceClock& c = fresh();
  c.add_stream(s1, true);
  c.enqueue(nullptr, work("k", WorkKind::Kernel, 2e-6));
  c.enqueue(s1, work("cudaMemcpyAsync HtoD", WorkKind::CopyHostToDevice, 3e-6));
  nlohmann::json t = simt::chrome_trace(c);
  int tracks = 0, complete = 0;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") ++tracks;
    if (e["ph"] == "X") {
      ++complete;
      if (e["name"] == "k") CHECK(e["dur"].get<double>() == doctest::Approx(2.0));  // microseconds
      if (e["name"] == "cudaMemcpyAsync HtoD") CHECK(e["tid"] == 1);
    }
  }
  CHECK(tracks == 2);
  CHECK(complete == 2);
  c.reset();
}
