// Shared memory of the block running on a worker: the static __shared__
// variables (thread-local storage of the kernel's module, one copy per worker)
// and the dynamic (extern) buffer. Each word has a shadow for the race,
// uninitialised-read and bounds checks.
#pragma once
#include "sim/events.hpp"
#include "sim/symbols.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace simt {

struct SharedShadow {
  std::uint32_t written = 0;   // block serial of the last write (0: never)
  std::uint32_t w_thread = 0, w_epoch = 0, w_wsync = 0;
  std::uint32_t read = 0;      // block serial of the last read
  std::uint32_t r_thread = 0, r_epoch = 0, r_wsync = 0;  // r_thread = kManyReaders if several
};
constexpr std::uint32_t kManyReaders = 0xFFFFFFFFu;

struct PendingRead {       // a read of a word nobody had written yet (yet: maybe later in this interval)
  std::uintptr_t addr;
  std::uint32_t thread;
  std::uint32_t epoch;
  Site site;
};

struct SharedWindow {
  std::uintptr_t lo = 0, hi = 0;
  std::vector<SharedShadow> shadow;
  bool contains(std::uintptr_t a) const { return a - lo < hi - lo; }
  SharedShadow& at(std::uintptr_t a) { return shadow[(a - lo) >> 2]; }
};

struct SharedWindows {
  const Module* module = nullptr;
  SharedWindow statics;         // this worker's copy of the module's __shared__ variables
  SharedWindow dynamic;         // this worker's extern __shared__ buffer (whole reservation)
  std::size_t dynamic_bytes = 0;  // what this launch asked for
  std::uint32_t serial = 0;     // increments per block run on this worker
  std::vector<PendingRead> pending;

  void prepare(const Module& m, std::size_t dynamic_bytes);  // once per launch on this worker
  void begin_block();
  std::string describe(std::uintptr_t a) const;  // "tile (offset 64 of 1024 bytes)"
  // A kernel may use its own __shared__ variables and those of device functions,
  // but not another kernel's (they share one thread-local block here, not on a GPU).
  void set_kernel(const std::string& full_name);  // per launch, after prepare()
  bool belongs_to_launch(const SharedVariable& v) const;
  // Every word of [a, a+size) lies in a variable this kernel may use.
  bool statics_allowed(std::uintptr_t a, std::size_t size) const {
    for (std::uintptr_t w = (a - statics.lo) >> 2; w <= (a + size - 1 - statics.lo) >> 2; ++w)
      if (w >= allowed_.size() || !allowed_[w]) return false;
    return true;
  }

 private:
  std::string kernel_prefix_;         // "name(signature)::" of the running kernel
  std::vector<std::uint8_t> allowed_; // per word of the statics window
};

void* dynamic_shared_base();  // of the block running on this thread

}  // namespace simt
