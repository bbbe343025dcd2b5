#include "sim/cuda/launch_batch.hpp"

#include "sim/clock/device_clock.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/exec/devices.hpp"
#include "sim/exec/host_lock.hpp"
#include "sim/exec/launch_checks.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace simt {
namespace {

// More than this many waiting launches run before the next is taken: a thread that
// launches in a loop without any other call still runs its work as it goes.
constexpr std::size_t kMostWaiting = 256;

struct Waiting {
  const void* kernel_fn;
  LaunchConfig cfg;
  std::unique_ptr<KernelBody> body;
  int device;        // the thread's current GPU when the launch was made
  double host_time;  // the thread's time on the clock then
};

void run_in_order(std::vector<Waiting>& launches);

struct Batch {
  std::vector<Waiting> launches;
  ~Batch() {  // the thread ends: what it launched still runs
    if (!launches.empty()) run_in_order(launches);
  }
};
thread_local Batch t_batch;

// The host's cores, handed to the batches' launches: a launch takes as many as it has
// workers (its blocks, up to the `threads` option) before it runs. Several GPUs' small
// launches then share the cores, and large ones take turns, instead of eight GPUs'
// launches running two workers each on two cores.
class Cores {
 public:
  static Cores& instance() {
    static Cores cores;
    return cores;
  }
  unsigned take(const LaunchConfig& cfg) {
    const unsigned n = static_cast<unsigned>(
        std::clamp<std::uint64_t>(std::min<std::uint64_t>(worker_count(), volume(cfg.grid)), 1, total_));
    std::unique_lock lock(mutex_);
    free_changed_.wait(lock, [&] { return free_ >= n; });
    free_ -= n;
    return n;
  }
  void give_back(unsigned n) {
    {
      std::lock_guard lock(mutex_);
      free_ += n;
    }
    free_changed_.notify_all();
  }

 private:
  Cores() : total_(std::max(1u, std::thread::hardware_concurrency())), free_(total_) {}
  const unsigned total_;
  unsigned free_;
  std::mutex mutex_;
  std::condition_variable free_changed_;
};

class TakenCores {
 public:
  explicit TakenCores(const LaunchConfig& cfg) : n_(Cores::instance().take(cfg)) {}
  ~TakenCores() { Cores::instance().give_back(n_); }
  TakenCores(const TakenCores&) = delete;
  TakenCores& operator=(const TakenCores&) = delete;

 private:
  unsigned n_;
};

// As the launch would have run when it was made: on its GPU, issued at its time.
int run_waiting(Waiting& w) {
  set_current_device(w.device);
  DeviceClock::set_host_time(w.host_time);
  const RuntimeLock lock(RuntimeLock::Launch);
  if (const int refused = launch_refusal(w.cfg.stream)) return refused;  // an earlier one of the batch faulted
  const int code = execute_launch(w.kernel_fn, w.cfg, *w.body);
  note_launch_result(code, w.cfg.stream);
  return code;
}

// The calling thread's device and clock as they were before its batch ran: the
// launches spent their issue time on the thread's clock when they were made.
class ThreadState {
 public:
  ThreadState() : device_(current_device()), host_time_(DeviceClock::host_time()) {}
  ~ThreadState() {
    set_current_device(device_);
    DeviceClock::set_host_time(host_time_);
  }
  ThreadState(const ThreadState&) = delete;
  ThreadState& operator=(const ThreadState&) = delete;

 private:
  int device_;
  double host_time_;
};

// Launches run on other threads: the calling thread's cudaGetLastError then reports
// the last that failed, as if each had run when made.
void record_errors(const std::vector<int>& codes) {
  for (int code : codes)
    if (code) record_launch_error(code);
}

// On the calling thread: each launch's error is already its last error.
void run_in_order(std::vector<Waiting>& launches) {
  std::vector<Waiting> batch = std::exchange(launches, {});
  const ThreadState keep;
  for (Waiting& w : batch) run_waiting(w);
}

// The threads that run batches' launches, one per GPU, for the life of the process: a
// thread that has launched keeps its worker (and its blocks' fiber stacks) in the
// worker pool (sim/exec/worker_pool.hpp), so they are made once, not per batch.
// Deliberately never destroyed: they wait for work until the process ends.
class GpuThreads {
 public:
  static GpuThreads& instance() {
    static GpuThreads* threads = new GpuThreads;
    return *threads;
  }
  // Runs `job` on GPU `device`'s thread.
  void post(int device, std::function<void()> job) {
    Queue& q = queue(device);
    {
      std::lock_guard lock(q.mutex);
      q.jobs.push_back(std::move(job));
    }
    q.ready.notify_one();
  }

 private:
  struct Queue {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::function<void()>> jobs;
  };
  Queue& queue(int device) {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Queue>& q = queues_[device];
    if (!q) {
      q = std::make_unique<Queue>();
      std::thread(serve, q.get()).detach();
    }
    return *q;
  }
  static void serve(Queue* q) {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lock(q->mutex);
        q->ready.wait(lock, [&] { return !q->jobs.empty(); });
        job = std::move(q->jobs.front());
        q->jobs.pop_front();
      }
      job();
    }
  }
  std::mutex mutex_;
  std::map<int, std::unique_ptr<Queue>> queues_;
};

// Each GPU's launches in order on that GPU's thread, the GPUs at once; the calling
// thread waits. Launches of different GPUs finish, and record, in whichever order their
// blocks end, as when host threads drive them (docs/multi-gpu.md, "Host threads").
void run_at_once(std::vector<Waiting>& launches) {
  std::vector<Waiting> batch = std::exchange(launches, {});
  std::map<int, std::vector<std::size_t>> by_device;
  for (std::size_t i = 0; i < batch.size(); ++i) by_device[batch[i].device].push_back(i);
  std::vector<int> codes(batch.size());
  std::vector<std::exception_ptr> failures(by_device.size());
  std::mutex mutex;
  std::condition_variable finished;
  std::size_t running = by_device.size();
  std::size_t g = 0;
  for (auto& [device, order] : by_device) {
    GpuThreads::instance().post(device, [&, &order = order, &failure = failures[g++]] {
      try {
        for (std::size_t i : order) {
          const TakenCores cores(batch[i].cfg);  // taken before the runtime's lock, never while holding it
          codes[i] = run_waiting(batch[i]);
        }
      } catch (...) {
        failure = std::current_exception();  // this GPU's later launches do not run
      }
      std::lock_guard lock(mutex);
      if (--running == 0) finished.notify_one();
    });
  }
  {
    std::unique_lock lock(mutex);
    finished.wait(lock, [&] { return running == 0; });
  }
  record_errors(codes);
  for (std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
}

// A runtime call that may touch memory, streams or the clock runs the batch first
// (sim/exec/host_lock.hpp); a launch only when the batch is full.
void before_host_call(HostLock::Kind kind) {
  std::vector<Waiting>& launches = t_batch.launches;
  if (launches.empty() || (kind == HostLock::Launch && launches.size() < kMostWaiting)) return;
  // A thread that drives one GPU (a pipeline stage's) gains nothing from other threads.
  const int first = launches.front().device;
  const bool one_gpu = std::all_of(launches.begin(), launches.end(), [&](const Waiting& w) { return w.device == first; });
  if (one_gpu || !concurrent_gpus()) run_in_order(launches);
  else run_at_once(launches);
}

const bool g_hooked = [] {
  set_before_host_call(before_host_call);
  return true;
}();

}  // namespace

bool join_launch_batch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body) {
  std::vector<Waiting>& launches = t_batch.launches;
  std::unique_ptr<KernelBody> copy;
  // A configuration the device refuses is refused now, for cudaGetLastError.
  if (device_count() > 1 && concurrent_gpus() && !cfg.cooperative && launches.size() < kMostWaiting &&
      check_config(kernel_fn, cfg, kernel_static_shared_bytes(kernel_fn)).first == 0)
    copy = body.clone();
  if (!copy) {
    if (!launches.empty()) run_in_order(launches);
    return false;
  }
  launches.push_back({kernel_fn, cfg, std::move(copy), current_device(), DeviceClock::host_time()});
  // The thread spends the launch's issue time now, as it would have issuing it.
  if (const TimeModel* m = DeviceClock::model()) DeviceClock::host_spends(m->issue_s(WorkKind::Kernel));
  return true;
}

void run_launch_batch() {
  if (!t_batch.launches.empty()) run_in_order(t_batch.launches);
}

}  // namespace simt
