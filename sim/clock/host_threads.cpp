// A host thread's clock starts where its creator's stood, and a join brings the
// joiner's clock up to where the joined thread's stopped.
//
// Each host thread has its own time on the simulated clock (device_clock.cpp): the
// host issues launches at about 5 us each, and a thread that drives one GPU must not
// be held back by the thread driving another. A new thread, though, would start at
// time 0 — in the simulated past — and issue its first launches for free, so a
// program that hands its stages to threads (pipeline.cu) would look host-free when it
// is not. On a real machine a thread begins after pthread_create returns and its
// work is done, for the joiner, when pthread_join returns: both rules are carried over
// here by interposing the two calls (std::thread goes through them too). The real
// functions are found with dlsym(RTLD_NEXT); this library is loaded before libc, so
// every program linked with simtlab's runtime calls these first.
#include "sim/clock/device_clock.hpp"

#include <dlfcn.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

namespace {

using StartRoutine = void* (*)(void*);
using CreateFn = int (*)(pthread_t*, const pthread_attr_t*, StartRoutine, void*);
using JoinFn = int (*)(pthread_t, void**);

template <class Fn>
Fn real(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "simtlab: %s not found in the C library (%s)\n", name, dlerror());
    std::abort();
  }
  return reinterpret_cast<Fn>(f);
}

struct Start {
  StartRoutine routine;
  void* arg;
  double host_time;  // the creator's, at pthread_create
};

// Where each finished thread's clock stopped, until someone joins it.
std::mutex& finished_mutex() {
  static std::mutex m;
  return m;
}
std::map<pthread_t, double>& finished() {
  static std::map<pthread_t, double> f;
  return f;
}

void* run_with_inherited_clock(void* p) {
  const Start start = *static_cast<Start*>(p);
  delete static_cast<Start*>(p);
  simt::DeviceClock::host_waits_until(start.host_time);
  void* result = start.routine(start.arg);
  const std::lock_guard<std::mutex> lock(finished_mutex());
  finished()[pthread_self()] = simt::DeviceClock::host_time();
  return result;
}

}  // namespace

extern "C" int pthread_create(pthread_t* thread, const pthread_attr_t* attr, StartRoutine routine, void* arg) {
  static const CreateFn create = real<CreateFn>("pthread_create");
  auto* start = new Start{routine, arg, simt::DeviceClock::host_time()};
  const int rc = create(thread, attr, run_with_inherited_clock, start);
  if (rc != 0) delete start;
  return rc;
}

extern "C" int pthread_join(pthread_t thread, void** result) {
  static const JoinFn join = real<JoinFn>("pthread_join");
  const int rc = join(thread, result);
  if (rc != 0) return rc;
  double stopped = -1;
  {
    const std::lock_guard<std::mutex> lock(finished_mutex());
    auto it = finished().find(thread);
    if (it != finished().end()) {
      stopped = it->second;
      finished().erase(it);
    }
  }
  if (stopped >= 0) simt::DeviceClock::host_waits_until(stopped);
  return rc;
}
