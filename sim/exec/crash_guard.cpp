// Last line of defence: a kernel that overflows its fiber stack (huge local
// arrays) or dereferences memory through a type the simulator cannot see
// (a plain float* in device code) gets a diagnostic naming the kernel, block and
// thread, and the process exits cleanly instead of dying with a bare SIGSEGV.
#include "sim/exec/crash_guard.hpp"

#include "sim/exec/block.hpp"
#include "sim/exec/worker.hpp"

#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace simt {

namespace {

void write_stderr(const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  ssize_t ignored = write(STDERR_FILENO, s, n);
  (void)ignored;
}

void on_fault(int sig, siginfo_t* info, void*) {
  ThreadState* t = t_thread;
  if (!t) {  // not in a kernel: not ours to explain
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  const auto addr = reinterpret_cast<std::uintptr_t>(info->si_addr);
  const bool overflow = addr < t->stack_lo && addr + 64 * 1024 >= t->stack_lo;
  char msg[512];
  std::snprintf(msg, sizeof msg,
                "simt: %s in a kernel, block (%u,%u,%u), thread (%u,%u,%u), address %p:\n  %s\n",
                overflow ? "stack overflow" : "memory fault", t->block->idx.x, t->block->idx.y, t->block->idx.z,
                t->thread_idx.x, t->thread_idx.y, t->thread_idx.z, info->si_addr,
                overflow ? "the thread's local variables exceed the simulator's 128 KiB stack per thread "
                           "(large local arrays belong in shared or global memory)"
                         : "an access the simulator could not check: device memory must be accessed through "
                           "f32/f64/i32/u32/i64/u64 or float2/float4 (docs/dialect.md); plain pointers are invisible");
  write_stderr(msg);
  _exit(3);
}

}  // namespace

void guard_this_thread() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    struct sigaction sa{};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
  });
  thread_local bool has_altstack = false;
  if (has_altstack) return;
  static constexpr std::size_t kAltStack = 64 * 1024;
  stack_t ss{};
  ss.ss_sp = std::malloc(kAltStack);
  ss.ss_size = kAltStack;
  if (ss.ss_sp && sigaltstack(&ss, nullptr) == 0) has_altstack = true;
}

}  // namespace simt
