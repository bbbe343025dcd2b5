// The lock the runtime serves host threads under, and the launches that run their
// blocks outside it (docs/multi-gpu.md, "Host threads").
//
// Every runtime call and launch holds one recursive mutex, so the simulator's
// process-wide state (allocations, streams, the repeat and deferral queues, the launch
// records, the clock) is changed by one host thread at a time. A launch's blocks are
// what takes the time, and they touch only the launch's own data, the device memory
// it reads and writes, and shadows indexed by address. So a launch that needs nothing
// of anyone else's may release the mutex while its blocks run: its *block phase* is
// then "in flight", and the host threads driving other GPUs go on meanwhile, launching
// there too. The rules that keep results those of one-at-a-time service:
//   - a runtime call waits until no block phase is in flight (it may allocate, free,
//     copy, snapshot or run deferred launches: anything), except: a launch, and the
//     calls that touch only their GPU's faults, streams, events and the clock
//     (cudaDeviceSynchronize, cudaEventRecord, ...), wait until the current GPU has no
//     block phase in flight (launches of one GPU run in turn, as before); the calls that
//     touch only the calling thread's state (cudaSetDevice, cudaGetLastError) wait for
//     nothing;
//   - a launch that needs the process alone (deferred work queued, a cooperative grid,
//     a kernel the compiler did not instrument, ...) waits until nothing is in flight;
//   - while a call waits for that, no new block phase starts (the waiter is not
//     starved); launches then keep the mutex while their blocks run.
// Kernels of different GPUs that read or write the same bytes at the same time are a
// race on GPUs too; only then can the order between them differ from run to run.
#pragma once
#include <mutex>

namespace simt {

std::recursive_mutex& host_mutex();

// Held by every runtime call (sim/cuda/runtime.hpp's RuntimeLock). The outermost
// `Call` waits for every block phase in flight to end; a `Device` call (a
// synchronisation) and a `Launch` only for the current GPU's; a `Thread` call (the
// thread's own state: its GPU, its last error) for none.
//
// Before it takes the lock, the outermost `Call` or `Device` hold runs the launches the
// calling thread left in its batch (sim/cuda/launch_batch.hpp), and a `Launch` when the
// batch is full: whatever the call does, it sees them done, as if each had run when it
// was made. A `Thread` call does not: on a GPU, cudaGetLastError right after a launch
// reports the launch's configuration errors (checked before a launch joins the batch),
// not faults of a kernel that has not yet finished.
class HostLock {
 public:
  enum Kind { Call, Device, Thread, Launch };
  explicit HostLock(Kind kind = Call);
  ~HostLock();
  HostLock(const HostLock&) = delete;
  HostLock& operator=(const HostLock&) = delete;
};

// A launch's claim, made first thing with the lock held (sim/shortcuts/launch.cpp):
// `alone` waits until no block phase is in flight. Whether the launch's blocks may
// then run outside the lock is decided here; run_launch asks blocks_outside_lock().
class LaunchSlot {
 public:
  explicit LaunchSlot(bool alone);
  ~LaunchSlot();
  LaunchSlot(const LaunchSlot&) = delete;
  LaunchSlot& operator=(const LaunchSlot&) = delete;
};

// Runs the block phase of the launch the calling thread's LaunchSlot claimed outside
// the lock when that slot allows it (once: a launch run from inside it keeps the
// lock), holding the lock otherwise.
class BlocksOutsideLock {
 public:
  BlocksOutsideLock();
  ~BlocksOutsideLock();
  BlocksOutsideLock(const BlocksOutsideLock&) = delete;
  BlocksOutsideLock& operator=(const BlocksOutsideLock&) = delete;

 private:
  int released_ = 0;  // the depth of the lock given up, 0 when it is kept
  int device_ = 0;
};

// Whether some launch's blocks are running outside the lock now (asked with it held).
bool block_phases_in_flight();

// Called by every outermost HostLock before it locks, with its kind: the launch batch
// (sim/cuda/launch_batch.cpp) runs the calling thread's waiting launches there.
void set_before_host_call(void (*hook)(HostLock::Kind));

// Off (SIMT_OPTIONS=concurrent_gpus=0 or set_concurrent_gpus(false)): every launch keeps
// the lock, one at a time, as simtlab did before.
void set_concurrent_gpus(bool on);
bool concurrent_gpus();

}  // namespace simt
