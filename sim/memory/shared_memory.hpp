// Shared memory of the block running on a worker: the static __shared__
// variables (thread-local storage of the kernel's module, one copy per worker)
// and the dynamic (extern) buffer. Each word has a shadow for the race,
// uninitialised-read and bounds checks.
#pragma once
#include "sim/types/events.hpp"
#include "sim/symbols/symbols.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace simt {

// Per 4-byte word. An interval is the stretch between two barriers of a block on
// this worker; intervals are numbered on, across blocks, so "written in this
// interval" and "written by this block" are each one comparison.
struct SharedShadow {
  std::uint32_t w_interval = 0, r_interval = 0;  // of the last write / read (0: never)
  std::uint32_t w_sync = 0, r_sync = 0;          // the accessing warp's collective count then
  std::uint16_t w_thread = 0, r_thread = 0;      // r_thread: a thread, or one of the two below
  // A sub-word access has touched this word in this block's worker: its bytes are
  // checked one by one (ByteShadow), and the fields above are the last access's.
  bool split = false;
};

// Who wrote and read each byte of a split word, as SharedShadow keeps for whole
// words: two threads storing the two halves of one word (fp16 tiles) or neighbouring
// bytes (char counters) do not race; one reading a byte another wrote does.
struct ByteShadow {
  std::uint32_t w_interval[4] = {}, r_interval[4] = {};
  std::uint32_t w_sync[4] = {}, r_sync[4] = {};
  std::uint16_t w_thread[4] = {}, r_thread[4] = {};
};
// Several readers in one interval: all in one warp (kWarpReaders | warp; a collective
// of that warp after the reads orders them before a write, as for one reader), or in
// several warps (kManyReaders). Both are above any thread index (at most 1024).
constexpr std::uint16_t kWarpReaders = 0x8000;
constexpr std::uint16_t kManyReaders = 0xFFFF;

// The readers of a word after `thread` reads it too.
inline std::uint16_t add_reader(std::uint16_t readers, std::uint16_t thread) {
  if (readers == thread || readers == kManyReaders) return readers;
  const std::uint16_t warp = readers & kWarpReaders ? readers & 0x7FFF : readers / 32;
  return warp == thread / 32 ? static_cast<std::uint16_t>(kWarpReaders | warp) : kManyReaders;
}

struct PendingRead {       // a read of a word this block had not written
  std::uintptr_t addr;
  std::uint32_t thread;
  Site site;
};

struct SharedWindow {
  std::uintptr_t lo = 0, hi = 0;
  std::vector<SharedShadow> shadow;
  bool contains(std::uintptr_t a) const { return a - lo < hi - lo; }
  SharedShadow& at(std::uintptr_t a) { return shadow[(a - lo) >> 2]; }
  // Allocated at the first sub-word access: most kernels never split a word.
  std::vector<ByteShadow> bytes;
  ByteShadow& bytes_at(std::uintptr_t a) {
    if (bytes.size() != shadow.size()) bytes.assign(shadow.size(), ByteShadow{});
    return bytes[(a - lo) >> 2];
  }
};

struct SharedWindows {
  const Module* module = nullptr;
  SharedWindow statics;         // this worker's copy of the module's __shared__ variables
  SharedWindow dynamic;         // this worker's extern __shared__ buffer (whole reservation)
  std::size_t dynamic_bytes = 0;  // what this launch asked for
  std::uint32_t interval = 0;     // the current interval (see SharedShadow)
  std::uint32_t block_start = 0;  // the interval this block began with
  std::size_t unwritten_words = 0;   // words the launch may use that this block has not written
  bool stores_this_interval = false;  // a checked shared store happened in the current interval
  std::vector<PendingRead> pending;

  void prepare(const Module& m, std::size_t dynamic_bytes);  // once per launch on this worker
  void begin_block();
  void next_interval() {  // at a barrier
    ++interval;
    stores_this_interval = false;
  }
  SharedWindow& window_of(std::uintptr_t a) { return statics.contains(a) ? statics : dynamic; }
  std::string describe(std::uintptr_t a) const;  // "tile (offset 64 of 1024 bytes)"
  // For an address outside every window but within a block's largest shared memory
  // of the __shared__ variables: the variable it runs past ("byte 128 of __shared__
  // tile (128 bytes), past its end"); "" for an address nowhere near them.
  std::string describe_near_statics(std::uintptr_t a) const;
  // A kernel may use its own __shared__ variables and those of device functions,
  // but not another kernel's (they share one thread-local block here, not on a GPU).
  void set_kernel(const std::string& full_name);  // per launch, after prepare()
  bool belongs_to_launch(const SharedVariable& v) const;
  // The address of the running kernel's first __shared__ variable (set_kernel): where
  // its shared memory would start on a GPU, give or take the compiler's layout; 0 if
  // it has none.
  std::uintptr_t kernel_lo = 0;
  // Every word of [a, a+size) lies in a variable this kernel may use.
  // Per word of the statics window, padded so that a 16-byte access starting in
  // the window can be looked up without a bounds check.
  const std::uint8_t* allowed_words() const { return allowed_.data(); }

 private:
  std::string kernel_prefix_;         // "name(signature)::" of the running kernel
  std::vector<std::uint8_t> allowed_; // per word of the statics window
  std::size_t allowed_count_ = 0;
};


}  // namespace simt
