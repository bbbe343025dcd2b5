// Last line of defence: a kernel that overflows its fiber stack (huge local
// arrays) or dereferences memory through a type the simulator cannot see
// (a plain float* in device code) gets a diagnostic naming the kernel, block and
// thread, and the process exits cleanly instead of dying with a bare SIGSEGV.
// In programs built by the compiler front end the device view of the arena is
// guarded (sim/memory/global_memory.hpp): a fault there, on a simulated thread or on
// the host, is an access the simulator did not see, reported at its source line.
#include "sim/exec/crash_guard.hpp"

#include "sim/state/block.hpp"
#include "sim/exec/worker.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/symbols/symbols.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

namespace simt {

namespace {

// What the program printed before the crash is kept: its stdout buffer goes out first.
// Unlocked, because the fault may have struck inside stdio holding the lock.
[[noreturn]] void exit_crashed() {
  fflush_unlocked(stdout);
  _exit(3);
}

void write_stderr(const char* s) {
  std::size_t n = 0;
  while (s[n]) ++n;
  ssize_t ignored = write(STDERR_FILENO, s, n);
  (void)ignored;
}

std::uintptr_t faulting_pc(void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return uc ? std::uintptr_t(uc->uc_mcontext.gregs[REG_RIP]) : 0;
#elif defined(__aarch64__)
  return uc ? std::uintptr_t(uc->uc_mcontext.pc) : 0;
#else
  (void)uc;
  return 0;
#endif
}

// A frame of code the program does not own: the C library and other system
// libraries, or simtlab's own libraries (their lines say nothing to the user).
bool foreign_code(std::uintptr_t pc, std::string* module) {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(pc), &info) || !info.dli_fname) return true;
  const std::string path = info.dli_fname;
  if (module) *module = path.substr(path.rfind('/') + 1) + (info.dli_sname ? std::string(": ") + info.dli_sname : "");
  return path.rfind("/lib/", 0) == 0 || path.rfind("/lib64/", 0) == 0 || path.rfind("/usr/lib", 0) == 0 ||
         path.find("libsimt_") != std::string::npos;
}

// The source line of the access: the faulting instruction, or, when that is code
// the program does not own (the C library's memchr), the first caller that is the
// program's. Not async-signal-safe (addr2line through popen): the process exits next.
// `via` names the foreign code the access was made in, if any.
SourceLocation where_it_faulted(std::uintptr_t pc, std::string& via) {
  std::vector<Site> frames;
  if (pc && foreign_code(pc, &via)) {
    void* stack[32];
    const int n = backtrace(stack, 32);
    bool past_pc = false;
    for (int i = 0; i < n; ++i) {
      const auto a = reinterpret_cast<std::uintptr_t>(stack[i]);
      if (!past_pc) {
        past_pc = a == pc;  // the unwinder reports the faulting instruction itself
        continue;
      }
      if (!foreign_code(a - 1, nullptr)) {
        frames.push_back(stack[i]);
        break;
      }
    }
  } else if (pc) {
    via.clear();
    frames.push_back(reinterpret_cast<Site>(pc + 1));  // resolve_sites takes return addresses
  }
  if (frames.empty()) return {};
  return resolve_sites(frames)[0];
}

// A touch of the guarded device view (sim/memory/global_memory.hpp): compiled code
// that is not the pass's (host code, a C library call, inline assembly) reached
// simulated device memory, where every access must be seen. One report, then exit 3.
[[noreturn]] void device_view_fault(const GlobalMemory& gm, ThreadState* t, std::uintptr_t addr, void* context) {
  static std::atomic<bool> reporting{false};
  if (reporting.exchange(true)) for (;;) pause();  // another thread reports
  std::string via;
  const SourceLocation at = where_it_faulted(faulting_pc(context), via);
  std::string line = at.line > 0 ? at.short_file() + ":" + std::to_string(at.line) : std::string("an unknown line");
  if (!at.function.empty() && at.function != "??") line += " (in " + at.function + ")";
  if (!via.empty()) line = "a call of precompiled code (" + via + ") from " + line;
  const Allocation* a = gm.nearest(addr);
  std::string what = "an address outside every allocation";
  if (a && addr >= a->base && addr < a->base + std::max<std::size_t>(a->size, 1))
    what = "byte " + std::to_string(addr - a->base) + " of " + a->describe();
  else if (a)
    what = "an address outside every allocation, near " + a->describe();
  char msg[2048];
  if (t) {
    std::snprintf(msg, sizeof msg,
                  "simt: kernel %s, block (%u,%u,%u), thread (%u,%u,%u): an access to device memory that the "
                  "simulator cannot see, at %s:\n"
                  "  address 0x%lx is %s.\n"
                  "  Device memory is reached only by code simtlab's compiler pass instruments (the kernel's own "
                  "loads, stores, atomics, memcpy/memset); this access is in code it does not instrument: a C "
                  "library or other precompiled function given a device pointer, or inline assembly "
                  "(docs/frontend.md, \"Fail loud\").\n",
                  t->block->launch ? t->block->launch->kernel.c_str() : "?", t->block->idx.x, t->block->idx.y,
                  t->block->idx.z, t->thread_idx.x, t->thread_idx.y, t->thread_idx.z, line.c_str(),
                  static_cast<unsigned long>(addr), what.c_str());
  } else {
    std::snprintf(msg, sizeof msg,
                  "simt: host code touched device memory at %s:\n"
                  "  address 0x%lx is %s.\n"
                  "  Device memory is not host memory (on a GPU this is a segmentation fault): copy it with "
                  "cudaMemcpy, or allocate it with cudaMallocManaged to share it with the host "
                  "(docs/frontend.md, \"Fail loud\").\n",
                  line.c_str(), static_cast<unsigned long>(addr), what.c_str());
  }
  write_stderr(msg);
  exit_crashed();
}

void on_fault(int sig, siginfo_t* info, void* context) {
  ThreadState* t = t_thread;
  if (const GlobalMemory* gm = GlobalMemory::existing();
      gm && gm->guarded() && gm->contains(reinterpret_cast<std::uintptr_t>(info->si_addr)))
    device_view_fault(*gm, t, reinterpret_cast<std::uintptr_t>(info->si_addr), context);
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
                         : "an access the simulator could not check: an index past the end of a local array "
                           "(local arrays are not bounds-checked), or memory touched by code not built through "
                           "the compiler front end (docs/frontend.md, \"Fail loud\")");
  write_stderr(msg);
  exit_crashed();
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
