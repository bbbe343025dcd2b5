// Device clock() and clock64() (sim/compiler/include/simt_cuda/device_clock.h,
// docs/exec.md "Device clock"): the running thread's estimated instructions since
// its block began, one cycle each.
#include "sim/exec/spin_watch.hpp"

#include <cstdint>
#include <ctime>

extern "C" long long __simt_clock64() {
  const simt::ThreadState* t = simt::t_thread;
  return t ? static_cast<long long>(simt::thread_quarters(t) / 4) : 0;
}

// The C library's clock(), defined here so that device code calling it reads the
// simulated counter: on the GPU it is the SM's 32-bit %clock, sign-extended to
// clock_t. Outside a simulated thread it is what glibc's clock() returns: the
// process's CPU time in units of CLOCKS_PER_SEC (-1 when unavailable).
extern "C" clock_t clock() noexcept {
  if (simt::t_thread)
    return static_cast<clock_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(__simt_clock64())));
  timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return static_cast<clock_t>(-1);
  return static_cast<clock_t>(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
