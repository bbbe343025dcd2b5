#include "sim/exec/host_lock.hpp"

#include "sim/exec/devices.hpp"
#include "sim/options/runtime_options.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <utility>

namespace simt {

namespace {

struct InFlight {
  std::condition_variable_any changed;  // a block phase ended, or a waiter gave up waiting
  int total = 0;                        // block phases running outside the lock
  std::array<int, kMaxDevices> on{};    // of them, per GPU
  int waiting_for_none = 0;             // calls waiting for total == 0: no new phase may start
};

InFlight& in_flight() {
  static InFlight s;
  return s;
}

thread_local int t_depth = 0;          // this thread's holds of the mutex
thread_local bool t_call = false;      // its outermost hold is a Call: nothing is in flight since
thread_local bool t_may_release = false;  // its LaunchSlot lets the next block phase leave the lock

std::atomic<int> g_concurrent{-1};  // -1: the option's value
std::atomic<void (*)(HostLock::Kind)> g_before_call{nullptr};

// The mutex as this thread holds it, every level at once: waiting on a condition
// variable must release all of them.
struct WholeHold {
  void lock() {
    for (int i = 0; i < t_depth; ++i) host_mutex().lock();
  }
  void unlock() {
    for (int i = 0; i < t_depth; ++i) host_mutex().unlock();
  }
};

template <class Pred>
void wait_holding(Pred ready) {
  WholeHold hold;
  in_flight().changed.wait(hold, ready);
}

void wait_for_none() {
  InFlight& s = in_flight();
  if (s.total == 0) return;
  ++s.waiting_for_none;
  wait_holding([&] { return s.total == 0; });
  --s.waiting_for_none;
}

}  // namespace

std::recursive_mutex& host_mutex() {
  static std::recursive_mutex m;
  return m;
}

void set_concurrent_gpus(bool on) { g_concurrent = on ? 1 : 0; }
bool concurrent_gpus() {
  const int v = g_concurrent.load(std::memory_order_relaxed);
  return v < 0 ? runtime_options().concurrent_gpus : v != 0;
}

HostLock::HostLock(Kind kind) {
  if (t_depth == 0 && kind != Thread)
    if (auto* before = g_before_call.load(std::memory_order_acquire)) before(kind);
  host_mutex().lock();
  if (t_depth++ > 0) return;
  t_call = kind == Call;
  InFlight& s = in_flight();
  if (kind == Call) {
    wait_for_none();
  } else if (kind == Device || kind == Launch) {
    const int device = current_device();
    if (s.on[static_cast<std::size_t>(device)] > 0) wait_holding([&] { return s.on[static_cast<std::size_t>(device)] == 0; });
  }
}

HostLock::~HostLock() {
  if (--t_depth == 0) t_call = false;
  host_mutex().unlock();
}

LaunchSlot::LaunchSlot(bool alone) {
  t_may_release = false;
  if (t_call || !concurrent_gpus()) return;  // a Call has the process to itself already
  if (alone) {
    wait_for_none();
    return;
  }
  t_may_release = in_flight().waiting_for_none == 0;
}

LaunchSlot::~LaunchSlot() { t_may_release = false; }

BlocksOutsideLock::BlocksOutsideLock() {
  if (!std::exchange(t_may_release, false) || t_depth == 0) return;
  InFlight& s = in_flight();
  device_ = current_device();
  ++s.total;
  ++s.on[static_cast<std::size_t>(device_)];
  released_ = t_depth;
  for (int i = 0; i < released_; ++i) host_mutex().unlock();
}

BlocksOutsideLock::~BlocksOutsideLock() {
  if (!released_) return;
  for (int i = 0; i < released_; ++i) host_mutex().lock();
  InFlight& s = in_flight();
  --s.total;
  --s.on[static_cast<std::size_t>(device_)];
  s.changed.notify_all();
}

bool block_phases_in_flight() { return in_flight().total > 0; }

void set_before_host_call(void (*hook)(HostLock::Kind)) { g_before_call.store(hook, std::memory_order_release); }

}  // namespace simt
