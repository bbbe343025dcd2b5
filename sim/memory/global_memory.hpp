// Simulated device (global) memory: one large reserved address range, carved by
// cudaMalloc. Keeping every device byte inside one range makes "is this a
// device access?" a single comparison, and lets shadow memory sit beside it.
//
// A freed range is handed out again to the next allocation of the same page span,
// the lowest such range first, as CUDA's allocator hands a benchmark's per-call
// temporaries the same addresses call after call (so its launches repeat, and
// sim/shortcuts/repeat_launch.hpp can skip them). A use after free faults while its range
// is unallocated, as under compute-sanitizer; once the range is handed out again the
// stale pointer reaches the new allocation, as on a GPU.
//
// The range is mapped twice (one memfd): the *device view* [base, base+size) holds
// the addresses handed out as device pointers, and the *host mapping* [base+size,
// base+2*size) holds the same bytes at a fixed offset. Only the host mapping is
// ever readable for plain device allocations once the arena is guarded (programs
// built by the compiler front end): the instrumented access path and the runtime's
// own copies translate (host_address), and any other touch of a device pointer —
// host code, a C library call, inline assembly — faults, and crash_guard.cpp names
// its line (docs/frontend.md, "Fail loud"). Managed memory stays host-accessible
// in the view between launches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace simt {

struct Allocation {
  std::uintptr_t base = 0;
  std::size_t size = 0;
  std::uint64_t id = 0;   // 1, 2, ... in allocation order
  bool live = true;
  bool managed = false;   // cudaMallocManaged: host-accessible between launches
  int device = 0;         // the simulated GPU it was allocated on (all share one address space: UVA)
  bool heap = false;      // the device malloc heap (sim/memory/device_heap.hpp), numbered 0
  bool freed_by_reset = false;  // released by cudaDeviceReset, not cudaFree
  // Page-locked host memory (cudaMallocHost, cudaHostAlloc): the host reads and writes
  // it directly at any time, and every GPU's kernels reach it over the host link
  // (zero-copy, as under UVA). Outside the program's allocation numbering and every
  // GPU's capacity; device is kHostMemory.
  bool host = false;
  std::string describe() const;  // "allocation #3 (4096 bytes at 0x...)"
};

// The `device` of page-locked host memory.
inline constexpr int kHostMemory = -1;

class GlobalMemory {
 public:
  static GlobalMemory& instance();
  // The arena if it exists yet, else null (for the fault handler: never creates it).
  static const GlobalMemory* existing();

  // null when the arena is exhausted. Managed memory (cudaMallocManaged) stays
  // readable in the device view while no launch runs.
  void* allocate(std::size_t bytes, bool managed = false, int device = 0);
  bool release(void* p);              // false if p is not a live allocation base
  // The device malloc heap of a GPU: an allocation outside the program's numbering.
  void* allocate_heap(std::size_t bytes, int device);
  // Page-locked host memory (Allocation::host); null when the arena is exhausted.
  void* allocate_host(std::size_t bytes);
  // Is the sector or byte at addr (inside the arena) page-locked host memory? For the
  // DRAM estimate, which files those sectors as host-link traffic instead.
  bool host_page(std::uintptr_t addr) const { return host_pages_[(addr - base_) >> kPageShift] != 0; }
  // Base and size of every live host allocation (launches that touch one are never
  // skipped or deferred as repeats: the host sees their memory without a call).
  std::vector<std::pair<std::uintptr_t, std::size_t>> host_ranges() const;
  // cudaDeviceReset: every allocation of the device is released.
  void release_device(int device);
  // A live allocation handed to a new cudaMalloc of its size and kind as it is (a free
  // the simulator had held back, sim/shortcuts/deferred_launches.hpp): it gets the next
  // allocation number.
  void renew(void* p);
  // cudaMemset(p, 0, bytes) of device memory: whole pages are given back to the
  // machine (they read as zero) instead of written, so zeroing tens of GiB costs no
  // memory; the partial pages at the ends are written.
  void fill_zero(std::uintptr_t addr, std::size_t bytes);
  // The live allocation containing [addr, addr+size), or null.
  const Allocation* find(std::uintptr_t addr, std::size_t size) const;
  // The allocation nearest to addr (live or freed), for diagnostics.
  const Allocation* nearest(std::uintptr_t addr) const;
  bool contains(std::uintptr_t addr) const { return addr - base_ < size_; }
  // Base and size of every live allocation, in address order.
  std::vector<std::pair<std::uintptr_t, std::size_t>> live_ranges() const;
  std::uintptr_t base() const { return base_; }
  // Where the bytes of device address addr are readable by the simulator: its host
  // mapping (the view's address + arena_bytes()); any other address is returned as is.
  std::uintptr_t host_address(std::uintptr_t addr) const { return contains(addr) ? addr + size_ : addr; }
  template <class T> T* host_address(T* p) const {
    return reinterpret_cast<T*>(host_address(reinterpret_cast<std::uintptr_t>(p)));
  }
  // Guarded: the device view of plain allocations is inaccessible, so only the
  // instrumented path (and the runtime, through host_address) reaches device bytes.
  // Turned on by the first module the compiler front end built (__simt_register_sites).
  void set_guarded(bool on);
  bool guarded() const { return guarded_; }
  // During a launch managed memory is device memory like any other (guarded);
  // between launches the host may touch it, as on a GPU. A launch of a kernel the
  // pass did not build (`simt bench`'s uninstrumented ones)
  // reads the view itself: it is open for that launch.
  void set_launch_running(bool running, bool instrumented = true);
  // The host mapping's range: a fault there is the simulator's own bug.
  bool in_host_mapping(std::uintptr_t addr) const { return addr - (base_ + size_) < size_; }
  std::size_t arena_bytes() const { return size_; }
  // The process's address-space limit (`ulimit -v`) the arena was sized under, in
  // bytes; 0 when there is none (the arena is then 2 TiB).
  std::size_t address_space_limit() const { return address_limit_; }
  // Bytes a new allocation could still take: the arena above the last allocation and
  // the freed ranges (each reusable by an allocation of its own size).
  std::size_t room() const;
  std::size_t bytes_in_use() const { return in_use_; }
  std::size_t bytes_in_use(int device) const;  // on one simulated GPU
  // Every live allocation, in allocation order (a copy: safe while others allocate).
  std::vector<Allocation> live_allocations() const;

  // Shadow words beside each 4-byte word (race detection) and each 32-byte sector
  // (DRAM traffic estimate); both reserved lazily, zero until touched.
  std::uint64_t* race_shadow(std::uintptr_t addr) const {
    return race_shadow_ + ((addr - base_) >> 2) * 2;
  }
  // Per 4 KiB page of the arena: how many bytes from the page's start lie inside
  // a live allocation (allocations start on a page). Lets the inlined access path
  // settle global bounds with one lookup; only faults take the full path.
  const std::uint16_t* page_bytes() const { return page_bytes_; }
  // The same table for kernels of one GPU among several: only the pages of its own
  // allocations and of managed memory. Another GPU's memory reads as no live bytes, so
  // the inlined path sends such an access to the slow path, which checks peer access
  // (sim/exec/access.cpp). Made at the first call for the device.
  const std::uint16_t* page_bytes(int device);
  static constexpr unsigned kPageShift = 12;

  std::uint32_t* sector_shadow(std::uintptr_t addr) const {
    return sector_shadow_ + ((addr - base_) >> 5);
  }
  // One bit per sector: touched by the running launch. Set beside the sector shadow's
  // first flag of a launch (sim/count/dram_estimate.cpp); read and cleared when the
  // launch ends (sim/shortcuts/launch_footprint.cpp), so finding a launch's sectors costs a
  // 256th of the memory in use, not the sector shadow's eighth.
  std::uint64_t* touched_bits() const { return touched_bits_; }
  // Where the allocated part of the arena ends: no allocation lies above it.
  std::uintptr_t allocated_end() const {
    std::lock_guard lock(mutex_);
    return next_;
  }

 private:
  GlobalMemory();
  std::uintptr_t base_ = 0;
  std::size_t size_ = 0;
  std::size_t address_limit_ = 0;
  std::uintptr_t next_ = 0;
  std::size_t in_use_ = 0;
  std::uint64_t* race_shadow_ = nullptr;
  std::uint32_t* sector_shadow_ = nullptr;
  std::uint64_t* touched_bits_ = nullptr;
  std::uint16_t* page_bytes_ = nullptr;
  std::uint8_t* host_pages_ = nullptr;  // 1 per page of page-locked host memory
  std::size_t host_live_ = 0;
  int fd_ = -1;              // the memfd behind both mappings
  bool guarded_ = false;
  bool launch_running_ = false;
  bool open_launch_ = false;  // a launch of uninstrumented kernel code is running
  std::size_t managed_live_ = 0;
  std::map<int, std::size_t> in_use_by_device_;
  void protect_view(const Allocation& a) const;  // the view's protection for a's state
  void mark_pages(std::uintptr_t base, std::size_t bytes, bool live);
  void* allocate_locked(std::size_t bytes, bool managed, int device, bool host);
  static bool reaches(const Allocation& a, int device) { return a.managed || a.host || a.device == device; }
  std::vector<std::uint16_t*> device_pages_;  // per device, null until its first page_bytes(device)
  std::vector<Allocation>::iterator record_at(std::uintptr_t p);
  std::vector<Allocation> allocations_;  // sorted by base; one per range, the latest allocation there
  std::set<std::pair<std::size_t, std::uintptr_t>> free_ranges_;  // (page span, base) of freed ranges
  std::uint64_t allocations_made_ = 0;
  mutable std::mutex mutex_;
};

}  // namespace simt
