// The simulated clock: when each piece of GPU work a program issues would start
// and end on the simulated devices (docs/exec.md, 'The simulated clock'). Each
// simulated GPU has its own clock (DeviceClock::of); all share one time base, and
// each host thread has its own host time. Every stream is a timeline; kernels and
// memsets run on the device's compute engine, host<->device copies on one copy
// engine per direction, copies to a peer GPU on the peer engine, NCCL's
// collectives on the communication engine (they overlap kernels, as NCCL's own
// kernels overlap compute on other streams; the SMs they take are not modelled). The simulator prices
// nothing itself: a TimeModel, installed by timing/ (libsimt_timing.so, which
// links the cost model), says how long each piece of work takes. Without one,
// every duration is 0 and cudaEventElapsedTime says so on stderr.
//
// Rules (CUDA's stream semantics, with one simplification for kernels):
//  - work on a stream starts after the stream's previous work, and not before the
//    host issued it. The host's clock moves when it waits (a synchronous cudaMemcpy,
//    cudaDeviceSynchronize, cudaStreamSynchronize, cudaEventSynchronize) and by what
//    it spends issuing work: each kernel launch, cudaMemcpyAsync and NCCL call
//    (TimeModel::issue_s, collective_issue_s);
//  - the legacy default stream (stream 0) waits for all blocking streams, and
//    blocking streams wait for it; streams created cudaStreamNonBlocking do not;
//  - kernels (and memsets, device-to-device copies) of different streams do not
//    overlap one another: they take the compute engine in the order the host
//    issued them. The time model prices a kernel as if it had the whole GPU, so
//    two running at once at full speed would count the hardware twice;
//  - host-to-device and device-to-host copies run on their own copy engines and
//    overlap kernels of other streams (CUDA's copy/compute overlap);
//  - a collective starts on every rank's stream when the last rank's stream is
//    ready (the caller passes that time as `not_before`).
#pragma once
#include "sim/state/launch_record.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace simt {

enum class WorkKind {
  Kernel, CopyHostToDevice, CopyDeviceToHost, CopyDeviceToDevice, CopyHostToHost, Memset,
  CopyPeer,    // to another simulated GPU (cudaMemcpyPeer, ncclSend/ncclRecv)
  Collective,  // an NCCL collective, as one rank sees it
};
const char* work_kind_name(WorkKind k);  // "kernel", "memcpy HtoD", ...

// How long one piece of work takes and what bounds it ("dram", "pcie" ...).
struct WorkTime {
  double seconds = 0;
  std::string bound;
  std::string sentence;  // the model's explanation, for the trace's args
  // A kernel's whole account (terms, levels, occupancy), as the launch's JSON carries
  // it to `simt exec`; {"unpriced": why} when the model refused the counters.
  nlohmann::json detail = nullptr;
};

class TimeModel {
 public:
  virtual ~TimeModel() = default;
  virtual WorkTime kernel(const LaunchRecord& r) const = 0;
  // Copies and memsets of `bytes` bytes; `pageable`: the host side of a copy is
  // ordinary (not cudaMallocHost) memory, which the driver stages through a buffer.
  virtual WorkTime transfer(WorkKind kind, std::size_t bytes, bool pageable) const = 0;
  virtual std::string device() const = 0;  // the catalog device priced
  // A copy of `bytes` from device `from` to device `to` over the link between them.
  virtual WorkTime peer_copy(std::size_t bytes, int from, int to) const = 0;
  // One NCCL call of `ranks` ranks over devices [first, first + ranks) as the
  // collective model prices it: `op` is "all-reduce", "broadcast", "reduce",
  // "all-gather", "reduce-scatter"; `bytes` in nccl-tests' sense (the whole buffer).
  virtual WorkTime collective(const std::string& op, std::size_t bytes, const std::vector<int>& devices) const = 0;
  // What the host spends issuing one NCCL call (or one group of them): back-to-back
  // small collectives take this long each, whatever the device does.
  virtual double collective_issue_s() const = 0;
  // What the host spends issuing a kernel launch (WorkKind::Kernel) or an async copy
  // before the device can start it: back-to-back launches of tiny kernels take at
  // least this long each. 0 where the model has no figure.
  virtual double issue_s(WorkKind kind) const {
    (void)kind;
    return 0;
  }
};

// One piece of work on the timeline, for the trace and the report.
struct TimelineEvent {
  std::string name;  // kernel name, or "cudaMemcpy HtoD", "cudaMemset"
  WorkKind kind = WorkKind::Kernel;
  int device = 0;    // the simulated GPU
  int stream = 0;    // 0: the legacy default stream; then 1, 2, ... in creation order
  double start_s = 0, duration_s = 0;
  nlohmann::json args = nlohmann::json::object();
  double end_s() const { return start_s + duration_s; }
};

// A stream as the runtime knows it: nullptr is the legacy default stream.
using StreamHandle = const void*;

class DeviceClock {
 public:
  // The clock of the calling thread's current device (sim/exec/devices.hpp).
  static DeviceClock& instance();
  static DeviceClock& of(int device);
  explicit DeviceClock(int device) : device_(device) {}  // programs use of(): one clock per device
  // The clocks of every device some work or stream has touched, in device order.
  static std::vector<const DeviceClock*> used();

  // One model prices every device (they are of one kind).
  static void set_model(std::unique_ptr<TimeModel> m);
  static const TimeModel* model();
  int device() const { return device_; }

  // Streams other than the legacy one must be added before use; unknown handles
  // throw std::invalid_argument (a destroyed or never-created stream).
  int add_stream(StreamHandle s, bool blocking);
  void remove_stream(StreamHandle s);
  bool has_stream(StreamHandle s) const;

  // Puts work of `duration` seconds on stream s, starting no earlier than
  // `not_before`; returns the event as placed.
  const TimelineEvent& enqueue(StreamHandle s, TimelineEvent ev, double not_before = 0);
  // When work issued now to s could start (its stream, the legacy stream's rule, the host).
  double earliest_start(StreamHandle s) const;
  // The time an event recorded now on s completes (a zero-length item on s).
  double record(StreamHandle s);
  // cudaStreamWaitEvent: later work on s starts no earlier than t.
  void stream_waits_until(StreamHandle s, double t);
  // The calling host thread blocks until t (synchronising calls); spends s seconds issuing.
  static void host_waits_until(double t);
  static void host_spends(double s);
  // When all work issued so far to s (for the legacy stream: and what it waits for) is done.
  double stream_done(StreamHandle s) const;
  double device_done() const;  // all streams
  static double host_time();
  // The calling thread takes over another's time: a thread that runs launches of a host
  // thread's batch (sim/cuda/launch_batch.cpp) issues each at the time it was made.
  static void set_host_time(double t);

  const std::vector<TimelineEvent>& events() const { return events_; }
  int stream_id(StreamHandle s) const;
  void reset();  // forget streams, events and times, and the host's (tests)

 private:
  struct Stream {
    int id = 0;
    bool blocking = true;
    double ready = 0;  // the end of its last item
  };
  Stream& stream(StreamHandle s);
  const Stream& stream(StreamHandle s) const;
  double& engine_for(WorkKind k);

  int device_ = 0;
  Stream legacy_{0, true, 0};
  std::map<StreamHandle, Stream> streams_;
  int next_id_ = 1;
  double compute_free_ = 0, h2d_free_ = 0, d2h_free_ = 0, host_copy_free_ = 0, peer_free_ = 0, comm_free_ = 0;
  std::vector<TimelineEvent> events_;
};

// The timeline as a Chrome/Perfetto trace (trace-event JSON): one process per
// device, one track per stream, each piece of work a complete ("X") event in
// microseconds.
nlohmann::json chrome_trace(const std::vector<const DeviceClock*>& clocks);
inline nlohmann::json chrome_trace(const DeviceClock& clock) { return chrome_trace(std::vector{&clock}); }

}  // namespace simt
