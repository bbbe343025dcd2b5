// The device heap: what `malloc` and `free` in device code take from and give back
// to. On a GPU it is a region of device memory of cudaLimitMallocHeapSize bytes (8 MiB
// unless the program asks for more before its first launch that uses it); a request
// it cannot satisfy returns NULL, as a 1 TiB one does.
//
// Each simulated GPU has one, reserved as one allocation of global memory before the
// first launch on that GPU of a program whose device code calls malloc (reserving it
// during a launch would move the allocation table under the threads reading it).
// Blocks are carved first-fit, 16-byte aligned, with 16 free bytes after each. Bounds are checked against each block
// (the bytes malloc was asked for), as compute-sanitizer's memcheck checks them: an
// access past a block's end that stays inside the heap is an out-of-bounds global
// access here, which the GPU itself would not fault on (docs/reliability.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace simt {

class DeviceHeap {
 public:
  static constexpr std::size_t kDefaultLimit = 8u << 20;  // CUDA's default cudaLimitMallocHeapSize

  static DeviceHeap& of(int device);
  // The heap of the GPU whose launch is running (set by prepare): device malloc's.
  static DeviceHeap* running();

  std::size_t limit() const { return limit_; }
  // False once the heap is reserved: CUDA refuses to resize a heap kernels used.
  bool set_limit(std::size_t bytes);
  // Before a launch on this GPU: reserves the region if the program's device code
  // uses the heap, and makes this the running heap.
  void prepare(int device);

  void* allocate(std::size_t bytes);  // thread-safe; null when no free range fits
  // Empty when [addr, addr+size) lies inside one live block of this heap; otherwise
  // what it overruns ("4 bytes past the end of a 64-byte block ..."). Thread-safe.
  std::string outside_block(std::uintptr_t addr, std::size_t size);
  // False for a pointer allocate did not return, or one released already.
  bool release(void* p);              // thread-safe
  // cudaDeviceReset: the region is gone (its allocation with the device's others)
  // and the limit is CUDA's default again.
  void reset();

 private:
  std::uintptr_t base_ = 0;
  std::size_t limit_ = kDefaultLimit;
  std::map<std::size_t, std::size_t> free_;    // offset -> bytes
  struct Block {
    std::size_t bytes;      // taken from the heap (rounded up to the alignment)
    std::size_t requested;  // what malloc was asked for: the block's bounds
  };
  std::map<std::size_t, Block> blocks_;  // offset -> block, live
  std::mutex mutex_;
};

// Set by a constructor the compiler pass adds to modules whose device code calls
// malloc or free (sim/compiler/pass/device_heap_calls.hpp).
void note_program_uses_device_heap();
bool program_uses_device_heap();

}  // namespace simt
