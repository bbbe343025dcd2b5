#include "sim/memory/global_memory.hpp"

#include <fmt/format.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <stdexcept>

namespace simt {

namespace {
// Address space only, reserved lazily: room for eight 141 GB GPUs filled to capacity.
constexpr std::size_t kArenaBytes = 2ull << 40;
constexpr std::size_t kAlignment = 256;           // cudaMalloc's alignment
constexpr std::size_t kGuardBytes = 4096;         // unmapped gap between allocations

void* reserve(std::size_t bytes, int prot) {
  void* p = mmap(nullptr, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot reserve simulated device memory");
  return p;
}
std::size_t round_up(std::size_t n, std::size_t a) { return (n + a - 1) / a * a; }
std::size_t span_of(const Allocation& a) { return round_up(std::max<std::size_t>(a.size, 1), 4096); }

// Maps [at, at+bytes) onto the memfd's first `bytes` bytes, inaccessible until mprotect.
void map_fd(std::uintptr_t at, std::size_t bytes, int fd) {
  void* p = mmap(reinterpret_cast<void*>(at), bytes, PROT_NONE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, fd, 0);
  if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot map simulated device memory");
}

// The arena's address space: its two views and its shadows take about 6.2 times the
// arena (reserved, not used: pages exist only where written). Under an address-space
// limit (`ulimit -v`, usual on shared teaching servers) the arena shrinks to fit in
// half of what the limit allows, so every command still starts; a cudaMalloc past it
// fails as on a full device (GlobalMemory::arena_bytes says how much there is).
std::size_t address_space_limit_of_this_process() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 0;
  return std::size_t(limit.rlim_cur);
}

std::size_t arena_bytes_under(std::size_t limit) {
  if (limit == 0) return kArenaBytes;
  constexpr std::size_t kStep = 16ull << 20;
  const std::size_t fits = limit / 2 * 10 / 62 / kStep * kStep;
  return std::clamp(fits, kStep, kArenaBytes);
}

std::atomic<const GlobalMemory*> g_existing{nullptr};
}  // namespace

std::string Allocation::describe() const {
  const char* state = live ? "" : freed_by_reset ? ", freed by cudaDeviceReset" : ", freed";
  if (heap) return fmt::format("the device malloc heap ({} bytes at 0x{:x}{})", size, base, state);
  if (host) return fmt::format("page-locked host memory ({} bytes at 0x{:x}{})", size, base, state);
  return fmt::format("allocation #{} ({} bytes at 0x{:x}{})", id, size, base, state);
}

GlobalMemory& GlobalMemory::instance() {
  static GlobalMemory memory;
  return memory;
}

const GlobalMemory* GlobalMemory::existing() { return g_existing.load(std::memory_order_acquire); }

GlobalMemory::GlobalMemory() {
  address_limit_ = address_space_limit_of_this_process();
  size_ = arena_bytes_under(address_limit_);
  // The device view and the host mapping: one reservation of twice the arena, both
  // halves mapped onto one sparse memfd (pages exist only where written).
  fd_ = memfd_create("simt-device-memory", MFD_CLOEXEC);
  if (fd_ < 0 || ftruncate(fd_, off_t(size_)) != 0)
    throw std::runtime_error("simtlab: cannot create simulated device memory (memfd)");
  base_ = reinterpret_cast<std::uintptr_t>(reserve(2 * size_, PROT_NONE));
  map_fd(base_, size_, fd_);
  map_fd(base_ + size_, size_, fd_);
  next_ = base_ + kGuardBytes;
  race_shadow_ = static_cast<std::uint64_t*>(reserve(size_ / 4 * 16, PROT_READ | PROT_WRITE));
  sector_shadow_ = static_cast<std::uint32_t*>(reserve(size_ / 32 * 4, PROT_READ | PROT_WRITE));
  touched_bits_ = static_cast<std::uint64_t*>(reserve(size_ / 32 / 8, PROT_READ | PROT_WRITE));
  page_bytes_ = static_cast<std::uint16_t*>(reserve((size_ >> kPageShift) * 2, PROT_READ | PROT_WRITE));
  host_pages_ = static_cast<std::uint8_t*>(reserve(size_ >> kPageShift, PROT_READ | PROT_WRITE));
  g_existing.store(this, std::memory_order_release);
}

void GlobalMemory::protect_view(const Allocation& a) const {
  const bool open = a.live && (!guarded_ || open_launch_ || a.host || (a.managed && !launch_running_));
  mprotect(reinterpret_cast<void*>(a.base), span_of(a), open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

void GlobalMemory::set_guarded(bool on) {
  std::lock_guard lock(mutex_);
  if (guarded_ == on) return;
  guarded_ = on;
  for (const Allocation& a : allocations_)
    if (a.live) protect_view(a);
}

void GlobalMemory::set_launch_running(bool running, bool instrumented) {
  std::lock_guard lock(mutex_);
  launch_running_ = running;
  if (!guarded_) return;
  const bool open = running && !instrumented;
  if (open || open_launch_) {  // every allocation changes
    open_launch_ = open;
    for (const Allocation& a : allocations_)
      if (a.live) protect_view(a);
    return;
  }
  if (managed_live_ == 0) return;
  for (const Allocation& a : allocations_)
    if (a.live && a.managed) protect_view(a);
}

namespace {
void fill_pages(std::uint16_t* table, std::uintptr_t offset, std::size_t bytes, bool live) {
  constexpr std::size_t kPage = std::size_t(1) << GlobalMemory::kPageShift;
  std::uint16_t* page = table + (offset >> GlobalMemory::kPageShift);  // allocations are page-aligned
  for (std::size_t done = 0; done < bytes; done += kPage)
    *page++ = live ? static_cast<std::uint16_t>(std::min(kPage, bytes - done)) : 0;
}
}  // namespace

// The pages of the allocation at `base`, in the table of every GPU (page_bytes()) and
// in the per-GPU tables of the GPUs that reach it: its own, and every GPU for managed memory.
void GlobalMemory::mark_pages(std::uintptr_t base, std::size_t bytes, bool live) {
  fill_pages(page_bytes_, base - base_, bytes, live);
  if (device_pages_.empty()) return;
  const Allocation& a = *record_at(base);
  for (std::size_t d = 0; d < device_pages_.size(); ++d)
    if (device_pages_[d] && reaches(a, static_cast<int>(d)))
      fill_pages(device_pages_[d], base - base_, bytes, live);
}

const std::uint16_t* GlobalMemory::page_bytes(int device) {
  std::lock_guard lock(mutex_);
  const auto d = static_cast<std::size_t>(device);
  if (d >= device_pages_.size()) device_pages_.resize(d + 1, nullptr);
  std::uint16_t*& table = device_pages_[d];
  if (!table) {  // the live pages it reaches, as the table of every GPU has them
    table = static_cast<std::uint16_t*>(reserve((size_ >> kPageShift) * 2, PROT_READ | PROT_WRITE));
    for (const Allocation& a : allocations_)
      if (a.live && reaches(a, device)) {
        const std::size_t first = (a.base - base_) >> kPageShift;
        std::copy_n(page_bytes_ + first, span_of(a) >> kPageShift, table + first);
      }
  }
  return table;
}

// The allocation record at or after base p (allocations_ is sorted by base).
std::vector<Allocation>::iterator GlobalMemory::record_at(std::uintptr_t p) {
  return std::lower_bound(allocations_.begin(), allocations_.end(), p,
                          [](const Allocation& a, std::uintptr_t v) { return a.base < v; });
}

std::size_t GlobalMemory::room() const {
  std::lock_guard lock(mutex_);
  const std::uintptr_t end = base_ + size_;
  std::size_t bytes = next_ + kGuardBytes < end ? end - next_ - kGuardBytes : 0;
  for (const auto& [span, at] : free_ranges_) bytes += span;
  return bytes;
}

std::size_t GlobalMemory::bytes_in_use(int device) const {
  std::lock_guard lock(mutex_);
  auto it = in_use_by_device_.find(device);
  return it == in_use_by_device_.end() ? 0 : it->second;
}

void* GlobalMemory::allocate(std::size_t bytes, bool managed, int device) {
  std::lock_guard lock(mutex_);
  return allocate_locked(bytes, managed, device, false);
}

void* GlobalMemory::allocate_host(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  return allocate_locked(bytes, false, kHostMemory, true);
}

std::vector<std::pair<std::uintptr_t, std::size_t>> GlobalMemory::host_ranges() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::uintptr_t, std::size_t>> out;
  if (host_live_ == 0) return out;
  for (const Allocation& a : allocations_)
    if (a.live && a.host) out.emplace_back(a.base, a.size);
  return out;
}

void* GlobalMemory::allocate_locked(std::size_t bytes, bool managed, int device, bool host) {
  if (bytes > size_) return nullptr;  // more than the arena (SIZE_MAX would wrap the rounding below)
  const std::size_t span = round_up(std::max<std::size_t>(bytes, 1), 4096);
  auto reuse = free_ranges_.lower_bound({span, 0});
  const bool reused = reuse != free_ranges_.end() && reuse->first == span;
  const std::uintptr_t p = reused ? reuse->second : next_;
  if (!reused && next_ + span + kGuardBytes > base_ + size_) return nullptr;
  if (mprotect(reinterpret_cast<void*>(p + size_), span, PROT_READ | PROT_WRITE) != 0) return nullptr;
  // Host memory is outside the numbering: the program's device allocations keep theirs.
  Allocation made{p, bytes, host ? 0 : ++allocations_made_, true, managed, device};
  made.host = host;
  Allocation* a = nullptr;
  if (reused) {
    free_ranges_.erase(reuse);
    a = &*record_at(p);
    *a = made;
  } else {
    next_ = round_up(p + span + kGuardBytes, kAlignment);
    a = &allocations_.emplace_back(made);
  }
  protect_view(*a);
  managed_live_ += managed;
  host_live_ += host;
  std::memset(host_pages_ + ((p - base_) >> kPageShift), host ? 1 : 0, span >> kPageShift);
  mark_pages(p, bytes, true);
  in_use_ += bytes;
  in_use_by_device_[device] += bytes;
  return reinterpret_cast<void*>(p);
}

void* GlobalMemory::allocate_heap(std::size_t bytes, int device) {
  void* p = allocate(bytes, false, device);
  if (!p) return nullptr;
  std::lock_guard lock(mutex_);
  Allocation& a = *record_at(reinterpret_cast<std::uintptr_t>(p));
  a.heap = true;
  a.id = 0;
  --allocations_made_;  // the program's own allocations keep their numbers
  // No page counts as inside an allocation: every access to the heap leaves the
  // inlined path for the slow one, which checks the malloc block (device_heap.hpp).
  mark_pages(a.base, a.size, false);
  return p;
}

void GlobalMemory::release_device(int device) {
  std::vector<void*> bases;
  {
    std::lock_guard lock(mutex_);
    for (const Allocation& a : allocations_)
      if (a.live && a.device == device) bases.push_back(reinterpret_cast<void*>(a.base));
  }
  for (void* p : bases) {
    release(p);
    std::lock_guard lock(mutex_);
    record_at(reinterpret_cast<std::uintptr_t>(p))->freed_by_reset = true;
  }
}

void GlobalMemory::fill_zero(std::uintptr_t addr, std::size_t bytes) {
  constexpr std::size_t kPage = std::size_t(1) << kPageShift;
  const std::uintptr_t first = round_up(addr, kPage), last = (addr + bytes) / kPage * kPage;
  if (last <= first) {  // within a page or two: just write
    std::memset(reinterpret_cast<void*>(host_address(addr)), 0, bytes);
    return;
  }
  std::memset(reinterpret_cast<void*>(host_address(addr)), 0, first - addr);
  std::memset(reinterpret_cast<void*>(host_address(last)), 0, addr + bytes - last);
  if (fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(first - base_), off_t(last - first)) != 0)
    std::memset(reinterpret_cast<void*>(host_address(first)), 0, last - first);  // no hole punching: write
}

bool GlobalMemory::release(void* ptr) {
  std::lock_guard lock(mutex_);
  auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto it = record_at(p);
  if (it == allocations_.end() || it->base != p || !it->live) return false;
  it->live = false;
  managed_live_ -= it->managed;
  host_live_ -= it->host;
  mark_pages(it->base, it->size, false);
  in_use_ -= it->size;
  in_use_by_device_[it->device] -= it->size;
  // Inaccessible and zero until handed out again: a use after free faults meanwhile.
  std::size_t span = span_of(*it);
  mprotect(ptr, span, PROT_NONE);
  mprotect(reinterpret_cast<void*>(p + size_), span, PROT_NONE);
  fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(p - base_), off_t(span));  // give the pages back
  free_ranges_.insert({span, p});
  return true;
}

void GlobalMemory::renew(void* ptr) {
  std::lock_guard lock(mutex_);
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto it = record_at(p);
  if (it != allocations_.end() && it->base == p && it->live) it->id = ++allocations_made_;
}

std::vector<std::pair<std::uintptr_t, std::size_t>> GlobalMemory::live_ranges() const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<std::uintptr_t, std::size_t>> out;
  for (const Allocation& a : allocations_)
    if (a.live) out.emplace_back(a.base, a.size);
  return out;
}

const Allocation* GlobalMemory::find(std::uintptr_t addr, std::size_t size) const {
  const Allocation* a = nearest(addr);
  if (a && a->live && addr >= a->base && addr + size <= a->base + a->size) return a;
  return nullptr;
}

const Allocation* GlobalMemory::nearest(std::uintptr_t addr) const {
  if (allocations_.empty()) return nullptr;
  auto it = std::upper_bound(allocations_.begin(), allocations_.end(), addr,
                             [](std::uintptr_t v, const Allocation& a) { return v < a.base; });
  if (it == allocations_.begin()) return &*it;
  const Allocation& before = *std::prev(it);
  if (addr < before.base + before.size) return &before;
  if (it == allocations_.end() || addr - (before.base + before.size) < it->base - addr) return &before;
  return &*it;
}

std::vector<Allocation> GlobalMemory::live_allocations() const {
  std::lock_guard lock(mutex_);
  std::vector<Allocation> live;
  for (const Allocation& a : allocations_)
    if (a.live) live.push_back(a);
  std::sort(live.begin(), live.end(), [](const Allocation& a, const Allocation& b) { return a.id < b.id; });
  return live;
}

}  // namespace simt
