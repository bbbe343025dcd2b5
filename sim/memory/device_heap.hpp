// The device heap: what `malloc` and `free` in device code take from and give back
// to. On a GPU it is a region of device memory of cudaLimitMallocHeapSize bytes (8 MiB
// unless the program asks for more before its first launch that uses it); a request
// it cannot satisfy returns NULL, as a 1 TiB one does.
//
// Each simulated GPU has one, reserved as one allocation of global memory before the
// first launch on that GPU of a program whose device code calls malloc (reserving it
// during a launch would move the allocation table under the threads reading it).
// Blocks are carved first-fit, 16-byte aligned. Bounds are checked against the heap
// region, not against each block: an overrun into a neighbouring block is not
// reported (on the GPU neither; compute-sanitizer's memcheck would).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

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
  // False for a pointer allocate did not return, or one released already.
  bool release(void* p);              // thread-safe
  // cudaDeviceReset: the region is gone (its allocation with the device's others)
  // and the limit is CUDA's default again.
  void reset();

 private:
  std::uintptr_t base_ = 0;
  std::size_t limit_ = kDefaultLimit;
  std::map<std::size_t, std::size_t> free_;    // offset -> bytes
  std::map<std::size_t, std::size_t> blocks_;  // offset -> bytes, live
  std::mutex mutex_;
};

// Set by a constructor the compiler pass adds to modules whose device code calls
// malloc or free (sim/compiler/pass/device_heap_calls.hpp).
void note_program_uses_device_heap();
bool program_uses_device_heap();

}  // namespace simt
