#include "sim/cuda/runtime.hpp"

#include "sim/clock/device_clock.hpp"
#include "sim/clock/link_traffic.hpp"
#include "sim/exec/devices.hpp"
#include "sim/exec/executor.hpp"
#include "sim/exec/launch_checks.hpp"
#include "sim/shortcuts/repeat_launch.hpp"
#include "sim/shortcuts/deferred_launches.hpp"
#include "sim/shortcuts/content_memo.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/state/diagnostic.hpp"

#include "util/host_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace {

thread_local cudaError_t g_last_error = cudaSuccess;  // what cudaGetLastError reports, per host thread as in CUDA
// A kernel fault, per device: reported by the next synchronising call on that device.
std::array<cudaError_t, simt::kMaxDevices> g_pending_faults{};
// A fault the GPU itself raises (an illegal or misaligned address, a device assert,
// __trap) corrupts the device's context: CUDA returns it from every later call that
// needs the device, cudaGetLastError included, until cudaDeviceReset. The
// simulator's own findings (races, deadlocks) fail the launch without this.
std::array<cudaError_t, simt::kMaxDevices> g_sticky{};
std::array<std::size_t, simt::kMaxDevices> g_printf_fifo{}, g_stack_size{};
bool g_report_faults = true;
std::map<const void*, int> g_stream_devices;      // created streams -> their device

cudaError_t& pending_fault() { return g_pending_faults[static_cast<std::size_t>(simt::current_device())]; }
cudaError_t& sticky() { return g_sticky[static_cast<std::size_t>(simt::current_device())]; }

bool is_sticky(const simt::LaunchRecord& rec) {
  for (const simt::Diagnostic& d : rec.diagnostics)
    switch (d.kind) {
      case simt::DiagKind::OutOfBoundsGlobal: case simt::DiagKind::OutOfBoundsShared: case simt::DiagKind::OutOfBoundsLocal:
      case simt::DiagKind::InvalidAddress: case simt::DiagKind::Misaligned: case simt::DiagKind::DeviceAssert:
      case simt::DiagKind::Trap: case simt::DiagKind::StackOverflow:
        return true;
      default: break;
    }
  return false;
}

// The clock of the device a stream belongs to (the legacy stream: the current device's).
simt::DeviceClock& clock_of(const void* stream) {
  const int d = simt::stream_device(stream);
  return simt::DeviceClock::of(d < 0 ? simt::current_device() : d);
}

cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) g_last_error = e;
  return e;
}

// The sticky error of the current device, reported by a call that needs the device
// (the first such call after the fault also takes the pending fault).
cudaError_t sticky_error() {
  if (sticky() == cudaSuccess) return cudaSuccess;
  pending_fault() = cudaSuccess;
  return record(sticky());
}

// A fault surfaces at the next synchronising call, as on the GPU.
cudaError_t take_fault() {
  if (cudaError_t e = sticky_error()) return e;
  cudaError_t e = pending_fault();
  pending_fault() = cudaSuccess;
  return e;
}

// Page-locked host memory lies in the arena (kernels reach it) but is host memory to
// copies, frees and pointer queries.
const simt::Allocation* host_allocation(const void* p, std::size_t bytes = 1) {
  const simt::Allocation* a = simt::GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(p), bytes);
  return a && a->host ? a : nullptr;
}
bool is_device_range(const void* p, std::size_t bytes) {
  const simt::Allocation* a = simt::GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(p), bytes);
  return a && !a->host;
}
bool is_device_pointer(const void* p) {
  return simt::GlobalMemory::instance().contains(reinterpret_cast<std::uintptr_t>(p)) && !host_allocation(p);
}

// The calling host thread spends what issuing this kind of work costs (a launch,
// an async copy): the work cannot start before the host has issued it.
void host_issues(simt::WorkKind kind) {
  if (const simt::TimeModel* m = simt::DeviceClock::model()) simt::DeviceClock::host_spends(m->issue_s(kind));
}

// Puts a launch on its stream's timeline, priced by the installed time model; a
// repeat takes the time of the launch it repeats (same counters, same time).
void place_launch(std::size_t index, const void* stream) {
  simt::DeviceClock& clock = simt::DeviceClock::instance();
  host_issues(simt::WorkKind::Kernel);
  simt::LaunchRecord& rec = simt::mutable_launch_record(index);
  simt::WorkTime t;
  if (rec.repeat_of) {
    const simt::LaunchRecord& first = simt::launch_records()[rec.repeat_of - 1];
    t = {first.clock_seconds, first.clock_bound, "", first.clock_detail};
  } else if (clock.model()) {
    t = clock.model()->kernel(rec);
  }
  simt::TimelineEvent ev;
  ev.name = rec.kernel;
  ev.kind = simt::WorkKind::Kernel;
  ev.duration_s = t.seconds;
  ev.args = {{"launch", index + 1},
             {"grid", fmt::format("({},{},{})", rec.grid.x, rec.grid.y, rec.grid.z)},
             {"block", fmt::format("({},{},{})", rec.block.x, rec.block.y, rec.block.z)},
             {"bound", t.bound},
             {"dram_bytes", rec.totals.dram_bytes()}};
  if (rec.repeat_of) ev.args["repeat_of"] = rec.repeat_of;
  if (!t.sentence.empty()) ev.args["time"] = t.sentence;
  if (rec.error) ev.args["error"] = rec.error;
  const simt::TimelineEvent& placed = clock.enqueue(stream, std::move(ev));
  rec.device = placed.device;
  rec.stream = placed.stream;
  rec.clock_start_s = placed.start_s;
  rec.clock_seconds = placed.duration_s;
  rec.clock_bound = t.bound;
  rec.clock_detail = std::move(t.detail);
}

int device_of(const void* p) {
  const simt::Allocation* a = simt::GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(p), 1);
  return a && !a->host ? a->device : -1;
}

simt::WorkKind transfer_kind(const void* dst, bool dst_dev, const void* src, bool src_dev) {
  if (dst_dev && src_dev)
    return device_of(dst) == device_of(src) ? simt::WorkKind::CopyDeviceToDevice : simt::WorkKind::CopyPeer;
  if (dst_dev) return simt::WorkKind::CopyHostToDevice;
  if (src_dev) return simt::WorkKind::CopyDeviceToHost;
  return simt::WorkKind::CopyHostToHost;
}

// Whether [p, p + bytes) lies in memory from cudaMallocHost (page-locked).
bool is_pinned(const void* p, std::size_t bytes) { return host_allocation(p, bytes) != nullptr; }

// A copy or memset on a stream's timeline; returns when it ends. `host` is the
// host side of a copy (null for device-only work).
// A copy between GPUs (`from`, `to`) goes over the link between them and is counted there.
double place_transfer(simt::WorkKind kind, std::size_t bytes, const void* stream, const char* api,
                      const void* host = nullptr, int from = -1, int to = -1) {
  simt::DeviceClock& clock = clock_of(stream);
  simt::WorkTime t;
  const bool pageable = host && !is_pinned(host, bytes);
  if (kind == simt::WorkKind::CopyPeer) {
    simt::add_link_bytes(from, to, static_cast<double>(bytes));
    if (clock.model()) t = clock.model()->peer_copy(bytes, from, to);
  } else if (clock.model()) {
    t = clock.model()->transfer(kind, bytes, pageable);
  }
  simt::TimelineEvent ev;
  // "cudaMemcpy HtoD": the API and the direction, as Nsight Systems names copies.
  const std::string kind_name = simt::work_kind_name(kind);
  ev.name = kind == simt::WorkKind::Memset ? std::string(api) : fmt::format("{} {}", api, kind_name.substr(kind_name.find(' ') + 1));
  ev.kind = kind;
  ev.duration_s = t.seconds;
  ev.args = {{"bytes", bytes}, {"bound", t.bound}};
  if (kind == simt::WorkKind::CopyPeer) ev.args["from_gpu"] = from, ev.args["to_gpu"] = to;
  if (host) ev.args["host_memory"] = pageable ? "pageable" : "pinned";
  if (!t.sentence.empty()) ev.args["time"] = t.sentence;
  return clock.enqueue(stream, std::move(ev)).end_s();
}

}  // namespace

namespace simt {

void note_launch_result(int error, const void* stream) {
  const LaunchRecord& rec = launch_records().back();
  // A refused launch (configuration, or a cooperative grid too large to be resident)
  // did not run: it takes no time and its error is not sticky.
  const bool refused = error == cudaErrorInvalidConfiguration || error == cudaErrorInvalidValue ||
                       error == cudaErrorCooperativeLaunchTooLarge;
  if (!refused)  // it ran (a fault too)
    place_launch(launch_records().size() - 1, stream);
  if (error == 0) {
    if (g_report_faults && !rec.repeat_of)  // warnings: the launch succeeded (a repeat's were shown once)
      for (const Diagnostic& d : rec.diagnostics) fmt::print(stderr, "{}\n", format_diagnostic(d));
    return;
  }
  if (g_report_faults)
    for (const Diagnostic& d : rec.diagnostics) fmt::print(stderr, "{}\n", format_diagnostic(d));
  if (refused) {
    g_last_error = static_cast<cudaError_t>(error);  // a launch error: reported by cudaGetLastError
  } else {
    pending_fault() = static_cast<cudaError_t>(error);
    g_last_error = static_cast<cudaError_t>(error);
    if (is_sticky(rec)) sticky() = static_cast<cudaError_t>(error);
  }
}

void record_launch_error(int error) {
  if (error) g_last_error = static_cast<cudaError_t>(error);
}

void set_report_faults(bool on) { g_report_faults = on; }
void forget_sticky_error() { sticky() = cudaSuccess; }

namespace {
// Deferred launches (sim/shortcuts/deferred_launches.hpp) run when something reads what
// they write: a fault then is reported like a fault of a launch just made, and the
// frees that waited for them happen.
const bool g_deferred_hooks = [] {
  DeferredLaunches& d = DeferredLaunches::instance();
  d.late_error = [](const LaunchRecord& rec) {
    if (g_report_faults)
      for (const Diagnostic& diag : rec.diagnostics) fmt::print(stderr, "{}\n", format_diagnostic(diag));
    g_pending_faults[static_cast<std::size_t>(rec.device)] = g_last_error = static_cast<cudaError_t>(rec.error);
    if (is_sticky(rec)) g_sticky[static_cast<std::size_t>(rec.device)] = static_cast<cudaError_t>(rec.error);
  };
  d.release_held = [](void* p) { GlobalMemory::instance().release(p); };
  return true;
}();
}  // namespace

std::recursive_mutex& runtime_mutex() { return host_mutex(); }

int stream_device(const void* stream) {
  if (!stream) return current_device();
  auto it = g_stream_devices.find(stream);
  return it == g_stream_devices.end() ? -1 : it->second;
}

// A launch goes to a stream of the current device (CUDA: invalid resource handle
// otherwise), and not after a sticky fault.
int launch_refusal(const void* stream) {
  if (cudaError_t e = sticky_error()) return e;
  if (DeviceClock::instance().has_stream(stream)) return 0;
  g_last_error = cudaErrorInvalidResourceHandle;
  return cudaErrorInvalidResourceHandle;
}

void note_untracked_host_write() {
  DeferredLaunches::instance().run_all();  // they read the old value
  RepeatLaunches::instance().forget();
  ContentMemo::instance().forget();  // its hashes cover global memory only
}
const void* runtime_view(const void* p) { return GlobalMemory::instance().host_address(p); }

}  // namespace simt

namespace {
// The device would hold the allocation but this process's address space cannot: under
// `ulimit -v` the arena is sized to fit the limit (sim/memory/global_memory.cpp). Said
// once, at the first allocation it refuses: a program that sizes its buffers by trial
// would otherwise repeat it.
void say_address_space_limit(std::size_t bytes) {
  const simt::GlobalMemory& gm = simt::GlobalMemory::instance();
  static bool said = false;
  if (gm.address_space_limit() == 0 || std::exchange(said, true)) return;
  constexpr double kGiB = 1ull << 30;
  const double per_gib = double(gm.address_space_limit()) / double(gm.arena_bytes());
  fmt::print(stderr,
             "simt: cudaMalloc of {:.2f} GiB refused (cudaErrorMemoryAllocation), though the simulated device has room: "
             "this process runs under an address-space limit (ulimit -v: {:.1f} GiB), which leaves {:.2f} GiB of "
             "simulated device memory ({:.2f} GiB free now). simtlab reserves address space (not memory) for its "
             "views and shadows, about {:.0f} GiB of limit per GiB of device memory: raise the limit "
             "(`ulimit -v unlimited`) to allocate more\n",
             bytes / kGiB, gm.address_space_limit() / kGiB, gm.arena_bytes() / kGiB, gm.room() / kGiB, per_gib);
}

cudaError_t device_malloc(void** ptr, std::size_t bytes, bool managed) {
  if (!ptr) return record(cudaErrorInvalidValue);
  if (bytes == 0) {  // CUDA 13: success, and a null pointer
    *ptr = nullptr;
    return cudaSuccess;
  }
  // A free held back for deferred launches is taken over by an allocation of the same
  // size: a launcher that allocates its temporaries every call gets the same
  // addresses, its launches repeat, and the queue need not run.
  simt::GlobalMemory& gm = simt::GlobalMemory::instance();
  const int device = simt::current_device();
  auto size_of = [&](void* held) {
    const simt::Allocation* a = gm.find(reinterpret_cast<std::uintptr_t>(held), 1);
    return a && a->managed == managed && a->device == device ? a->size : std::size_t(-1);
  };
  if (void* p = simt::DeferredLaunches::instance().adopt_held(bytes, size_of)) {
    gm.renew(p);
    *ptr = p;
    return cudaSuccess;
  }
  void* p = gm.allocate(bytes, managed, device);
  const std::size_t capacity = simt::device_limits().global_memory_bytes;
  if (!p || gm.bytes_in_use(device) > capacity) {
    if (p) gm.release(p);
    else if (bytes <= capacity - std::min(capacity, gm.bytes_in_use(device))) say_address_space_limit(bytes);
    *ptr = nullptr;
    return record(cudaErrorMemoryAllocation);
  }
  *ptr = p;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  return device_malloc(ptr, bytes, false);
}

cudaError_t cudaFree(void* ptr) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (!ptr) return cudaSuccess;
  simt::GlobalMemory& gm = simt::GlobalMemory::instance();
  simt::DeferredLaunches& deferred = simt::DeferredLaunches::instance();
  if (deferred.holds(ptr)) deferred.run_all();  // freed twice: release it, so this call fails as it should
  // A host, pinned or interior pointer, or one freed before: cudaErrorInvalidValue, as
  // CUDA 13 returns on the H200 (not cudaErrorInvalidDevicePointer).
  const simt::Allocation* a = gm.find(reinterpret_cast<std::uintptr_t>(ptr), 1);
  if (!a || a->host || a->base != reinterpret_cast<std::uintptr_t>(ptr)) return record(cudaErrorInvalidValue);
  simt::RepeatLaunches::instance().freed(ptr, a->size);  // a repeat would use freed memory: let it run and fault
  if (deferred.hold_release(ptr, a->size)) return cudaSuccess;  // released when the queue runs, or never needed
  return gm.release(ptr) ? cudaSuccess : record(cudaErrorInvalidValue);
}

// CUDA 13: device memory (interior pointers too) is cudaMemoryTypeDevice, managed
// memory cudaMemoryTypeManaged, cudaMallocHost/cudaHostAlloc memory cudaMemoryTypeHost
// (mapped: both pointers), any other pointer cudaMemoryTypeUnregistered with
// cudaSuccess (device -2, as CUDA reports it; the host pointer is the pointer given).
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  const simt::RuntimeLock lock;
  if (!attributes) return record(cudaErrorInvalidValue);
  *attributes = cudaPointerAttributes{};
  void* p = const_cast<void*>(ptr);
  if (ptr && is_pinned(ptr, 1)) {
    attributes->type = cudaMemoryTypeHost;
    attributes->device = simt::current_device();
    attributes->devicePointer = p;
    attributes->hostPointer = p;
  } else if (const simt::Allocation* a = simt::GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(ptr), 1)) {
    attributes->type = a->managed ? cudaMemoryTypeManaged : cudaMemoryTypeDevice;
    attributes->device = a->device;
    attributes->devicePointer = p;
    attributes->hostPointer = a->managed ? p : nullptr;
  } else {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->devicePointer = nullptr;
    attributes->hostPointer = p;
  }
  return cudaSuccess;
}

// Page-locked: copies from it run at the host link's rate, and kernels on every GPU
// may read and write it through the same pointer (zero-copy, as with UVA on a 64-bit
// host: cudaHostAlloc's flags change nothing here). It lies in the simulated address
// space, open to the host at all times; a kernel's accesses to it are counted as
// global accesses whose sectors cross the host link instead of DRAM
// (simt__sysmem_bytes_{read,write}.sum). Its launches are never skipped or deferred as
// repeats: the host reads and writes it without a call.
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  const simt::RuntimeLock lock;
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = simt::GlobalMemory::instance().allocate_host(bytes ? bytes : 1);
  return *ptr ? cudaSuccess : record(cudaErrorMemoryAllocation);
}
cudaError_t cudaFreeHost(void* ptr) {
  const simt::RuntimeLock lock;
  if (!ptr) return cudaSuccess;
  const simt::Allocation* a = host_allocation(ptr);
  if (!a || a->base != reinterpret_cast<std::uintptr_t>(ptr)) return record(cudaErrorInvalidValue);
  return simt::GlobalMemory::instance().release(ptr) ? cudaSuccess : record(cudaErrorInvalidValue);
}
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags) {
  const simt::RuntimeLock lock;
  if (!device_ptr || flags != 0 || !is_pinned(host_ptr, 1)) return record(cudaErrorInvalidValue);
  *device_ptr = host_ptr;  // one address space
  return cudaSuccess;
}

namespace {

// Checks a copy and does it; returns its direction on the device's engines.
cudaError_t copy_now(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, simt::WorkKind& what,
                     const void*& host) {
  if (!dst || !src) return record(cudaErrorInvalidValue);
  bool dst_dev = is_device_pointer(dst), src_dev = is_device_pointer(src);
  switch (kind) {
    case cudaMemcpyHostToDevice: if (!dst_dev || src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDeviceToHost: if (dst_dev || !src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDeviceToDevice: if (!dst_dev || !src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyHostToHost: if (dst_dev || src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDefault: break;
    default: return record(cudaErrorInvalidMemcpyDirection);
  }
  if ((dst_dev && !is_device_range(dst, bytes)) || (src_dev && !is_device_range(src, bytes)))
    return record(cudaErrorInvalidValue);  // past the end of the allocation
  simt::DeferredLaunches& deferred = simt::DeferredLaunches::instance();
  if (src_dev) deferred.before_host_access(src, bytes);
  if (dst_dev) deferred.before_host_access(dst, bytes);
  if (dst_dev) simt::RepeatLaunches::instance().host_wrote(dst, bytes);
  // Device bytes through their host mapping: the device view may be guarded.
  const simt::GlobalMemory& gm = simt::GlobalMemory::instance();
  std::memmove(gm.host_address(dst), gm.host_address(src), bytes);
  what = transfer_kind(dst, dst_dev, src, src_dev);
  host = dst_dev ? (src_dev ? nullptr : src) : dst;
  return cudaSuccess;
}

}  // namespace

// Synchronous: on the legacy default stream, and the host waits for it.
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  const simt::RuntimeLock lock;
  if (cudaError_t f = take_fault()) return record(f);
  if (bytes == 0) return cudaSuccess;
  simt::WorkKind what{};
  const void* host = nullptr;
  if (cudaError_t e = copy_now(dst, src, bytes, kind, what, host)) return e;
  if (what == simt::WorkKind::CopyHostToHost) return cudaSuccess;  // the host's own memcpy: no device time
  simt::DeviceClock::host_waits_until(
      place_transfer(what, bytes, nullptr, "cudaMemcpy", host, device_of(src), device_of(dst)));
  return cudaSuccess;
}

// The data moves now (every launch before it has completed); its time goes on `stream`.
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (simt::stream_device(stream) < 0) return record(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  simt::WorkKind what{};
  const void* host = nullptr;
  if (cudaError_t e = copy_now(dst, src, bytes, kind, what, host)) return e;
  if (what != simt::WorkKind::CopyHostToHost) {
    host_issues(what);
    place_transfer(what, bytes, stream, "cudaMemcpyAsync", host, device_of(src), device_of(dst));
  }
  return cudaSuccess;
}

namespace {
// Non-zero bytes of simulated device memory are this machine's memory: a write of more
// than it has left would grow the process until the kernel kills it. Refused instead,
// loudly, with the error CUDA gives for memory it cannot provide.
bool host_can_hold(std::size_t bytes, const char* call) {
  const std::uint64_t available = simt::available_host_bytes();
  if (available == 0 || bytes <= available) return true;
  fmt::print(stderr,
             "simt: {} of {:.1f} GiB to a non-zero value needs that much of this machine's memory, which has "
             "{:.1f} GiB available: refused with cudaErrorMemoryAllocation (a GPU would take it; a value of 0 "
             "costs nothing here)\n",
             call, bytes / double(1ull << 30), available / double(1ull << 30));
  return false;
}

// A cudaMemset into sectors deferred launches touch: it runs in its turn, after them.
class DeferredMemset final : public simt::DeferredWork {
 public:
  DeferredMemset(void* dst, int value, std::size_t bytes) : dst_(dst), value_(value), bytes_(bytes) {}
  void run() override { std::memset(simt::GlobalMemory::instance().host_address(dst_), value_, bytes_); }

 private:
  void* dst_;
  int value_;
  std::size_t bytes_;
};

simt::LaunchFootprint byte_footprint(const void* p, std::size_t bytes) {
  const simt::SectorRun run = simt::sectors_of_bytes(reinterpret_cast<std::uintptr_t>(p), bytes);
  return {{run}, {run}, false, true};
}
}  // namespace

cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (simt::stream_device(stream) < 0) return record(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  // Page-locked host memory too: the GPU reaches it (CUDA 13 sets it, cudaSuccess).
  if (!is_device_range(dst, bytes) && !is_pinned(dst, bytes)) return record(cudaErrorInvalidValue);
  if ((value & 0xff) != 0 && !host_can_hold(bytes, "cudaMemset")) return record(cudaErrorMemoryAllocation);
  simt::RepeatLaunches::instance().host_wrote(dst, bytes);
  place_transfer(simt::WorkKind::Memset, bytes, stream, "cudaMemset");
  simt::DeferredLaunches& deferred = simt::DeferredLaunches::instance();
  if (deferred.touches(dst, bytes)) {  // it comes after them: it waits its turn too
    deferred.add(std::make_unique<DeferredMemset>(dst, value, bytes), byte_footprint(dst, bytes));
    return cudaSuccess;
  }
  simt::GlobalMemory& gm = simt::GlobalMemory::instance();
  const auto a = reinterpret_cast<std::uintptr_t>(dst);
  if ((value & 0xff) == 0) {
    gm.fill_zero(a, bytes);
    return cudaSuccess;
  }
  std::memset(reinterpret_cast<void*>(gm.host_address(a)), value, bytes);
  return cudaSuccess;
}

// Asynchronous with respect to the host for device memory, as in CUDA.
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) { return cudaMemsetAsync(dst, value, bytes, nullptr); }

cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  simt::DeferredLaunches::instance().run_all();  // the host reads managed memory without a call
  simt::RepeatLaunches::instance().disable_for_managed_memory();
  return device_malloc(ptr, bytes, true);
}

cudaError_t cudaDeviceSynchronize() {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  simt::DeviceClock::host_waits_until(simt::DeviceClock::instance().device_done());
  return record(take_fault());
}
// The device's context is destroyed: its memory is freed (a pointer kept from before
// faults as a use after free), its heap and limits are CUDA's defaults again. After a
// sticky fault a reset does not bring the device back (CUDA: the process must be
// restarted): on the H200 it returns success, cudaGetLastError then returns the fault
// once, and every later call cudaErrorDevicesUnavailable (tests/cuda/runtime_errors_h200.txt).
cudaError_t cudaDeviceReset() {
  const simt::RuntimeLock lock;
  simt::DeferredLaunches::instance().run_all();
  if (const cudaError_t fault = sticky(); fault != cudaSuccess) {
    pending_fault() = cudaSuccess;
    g_last_error = fault == cudaErrorDevicesUnavailable ? cudaSuccess : fault;
    sticky() = cudaErrorDevicesUnavailable;
    return cudaSuccess;
  }
  const int device = simt::current_device();
  simt::GlobalMemory::instance().release_device(device);
  simt::DeviceHeap::of(device).reset();
  g_printf_fifo[static_cast<std::size_t>(device)] = g_stack_size[static_cast<std::size_t>(device)] = 0;
  pending_fault() = g_last_error = cudaSuccess;
  simt::RepeatLaunches::instance().forget();
  simt::ContentMemo::instance().forget();
  return cudaSuccess;
}
// Not sticky itself, as on the H200: a sticky fault is returned once, and again by
// every later call that needs the device (which records it anew).
cudaError_t cudaGetLastError() {
  const simt::RuntimeLock lock(simt::RuntimeLock::Thread);
  cudaError_t e = g_last_error;
  g_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  const simt::RuntimeLock lock(simt::RuntimeLock::Thread);
  return g_last_error;
}

// CUDA 13's texts and names for every code; for any other value both are
// "unrecognized error code", as CUDA 13.0's libcudart answers.
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
#define SIMT_CUDA_ERROR_TEXT(name, value, text) \
  case name: return text;
    SIMT_CUDA_ERROR_CODES(SIMT_CUDA_ERROR_TEXT)
#undef SIMT_CUDA_ERROR_TEXT
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
#define SIMT_CUDA_ERROR_NAME(name, value, text) \
  case name: return #name;
    SIMT_CUDA_ERROR_CODES(SIMT_CUDA_ERROR_NAME)
#undef SIMT_CUDA_ERROR_NAME
  }
  return "unrecognized error code";
}

cudaError_t cudaGetDeviceCount(int* n) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Thread);
  if (!n) return record(cudaErrorInvalidValue);
  *n = simt::device_count();
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Thread);
  if (!simt::valid_device(d)) return record(cudaErrorInvalidDevice);
  simt::set_current_device(d);
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* d) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Thread);
  if (!d) return record(cudaErrorInvalidValue);
  *d = simt::current_device();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  const simt::RuntimeLock lock;
  if (!p) return record(cudaErrorInvalidValue);
  if (!simt::valid_device(device)) return record(cudaErrorInvalidDevice);
  const simt::DeviceLimits& d = simt::device_limits();
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "simtlab simulated %s", d.name.c_str());
  p->totalGlobalMem = d.global_memory_bytes;
  p->sharedMemPerBlock = d.shared_per_block;
  p->sharedMemPerBlockOptin = d.shared_per_block_optin;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  p->maxThreadsDim[0] = static_cast<int>(d.max_block_dim_x);
  p->maxThreadsDim[1] = static_cast<int>(d.max_block_dim_y);
  p->maxThreadsDim[2] = static_cast<int>(d.max_block_dim_z);
  p->maxGridSize[0] = static_cast<int>(d.max_grid_dim_x);
  p->maxGridSize[1] = static_cast<int>(d.max_grid_dim_y);
  p->maxGridSize[2] = static_cast<int>(d.max_grid_dim_z);
  p->multiProcessorCount = static_cast<int>(d.sm_count);
  p->major = d.cc_major;
  p->minor = d.cc_minor;
  p->maxThreadsPerMultiProcessor = static_cast<int>(d.max_threads_per_sm);
  p->regsPerMultiprocessor = static_cast<int>(d.registers_per_sm);
  p->sharedMemPerMultiprocessor = d.shared_per_sm;
  p->clockRate = static_cast<int>(d.clock_khz);
  p->l2CacheSize = static_cast<int>(d.l2_bytes);
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (!free || !total) return record(cudaErrorInvalidValue);
  const std::size_t capacity = simt::device_limits().global_memory_bytes;
  const std::size_t used = simt::GlobalMemory::instance().bytes_in_use(simt::current_device());
  *total = capacity;
  *free = used < capacity ? capacity - used : 0;
  // Under an address-space limit the arena may hold less than the device (ulimit -v):
  // what a program sizes its buffers by is what it can allocate.
  if (simt::GlobalMemory::instance().address_space_limit() != 0)
    *free = std::min(*free, simt::GlobalMemory::instance().room());
  return cudaSuccess;
}

namespace {
// CUDA 13's defaults on the H200 (tests/cuda/runtime_errors_h200.txt).
constexpr std::size_t kPrintfFifoDefault = 8650752;
constexpr std::size_t kStackDefault = 1024;
std::size_t or_default(std::size_t v, std::size_t d) { return v ? v : d; }
}  // namespace

cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit) {
  const simt::RuntimeLock lock;
  if (!value) return record(cudaErrorInvalidValue);
  const auto d = static_cast<std::size_t>(simt::current_device());
  switch (limit) {
    case cudaLimitMallocHeapSize: *value = simt::DeviceHeap::of(simt::current_device()).limit(); break;
    case cudaLimitPrintfFifoSize: *value = or_default(g_printf_fifo[d], kPrintfFifoDefault); break;
    case cudaLimitStackSize: *value = or_default(g_stack_size[d], kStackDefault); break;
    default: return record(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  const auto d = static_cast<std::size_t>(simt::current_device());
  switch (limit) {
    case cudaLimitMallocHeapSize:
      if (!simt::DeviceHeap::of(simt::current_device()).set_limit(value)) return record(cudaErrorInvalidValue);
      break;
    case cudaLimitPrintfFifoSize: g_printf_fifo[d] = value; break;
    case cudaLimitStackSize: g_stack_size[d] = value; break;
    default: return record(cudaErrorUnsupportedLimit);
  }
  return cudaSuccess;
}

// Every launch and copy completes before its call returns; streams and events
// place the work on the simulated clock (sim/clock/device_clock.hpp), where
// cudaEventElapsedTime reads the predicted GPU time.
struct CUstream_st {
  unsigned flags = 0;
};

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (!s || (flags & ~unsigned(cudaStreamNonBlocking))) return record(cudaErrorInvalidValue);
  *s = new CUstream_st{flags};
  simt::DeviceClock::instance().add_stream(*s, !(flags & cudaStreamNonBlocking));
  g_stream_devices[*s] = simt::current_device();
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* s) { return cudaStreamCreateWithFlags(s, cudaStreamDefault); }

cudaError_t cudaStreamDestroy(cudaStream_t s) {
  const simt::RuntimeLock lock;
  if (!s || simt::stream_device(s) < 0) return record(cudaErrorInvalidResourceHandle);
  clock_of(s).remove_stream(s);
  g_stream_devices.erase(s);
  delete s;
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t s) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  const int device = simt::stream_device(s);
  if (device < 0) return record(cudaErrorInvalidResourceHandle);
  simt::DeviceClock::host_waits_until(clock_of(s).stream_done(s));
  if (cudaError_t e = g_sticky[static_cast<std::size_t>(device)]) return record(e);
  cudaError_t& fault = g_pending_faults[static_cast<std::size_t>(device)];
  const cudaError_t e = fault;
  fault = cudaSuccess;
  return record(e);
}

cudaError_t cudaStreamQuery(cudaStream_t s) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  return simt::stream_device(s) >= 0 ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}

struct CUevent_st {
  unsigned flags = 0;
  bool recorded = false;
  double t = 0;  // simulated seconds
  int device = 0;  // an event is recorded on streams of the device current when it was created
};

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  if (cudaError_t e = sticky_error()) return e;
  if (!e || (flags & ~unsigned(cudaEventBlockingSync | cudaEventDisableTiming | 4 /* Interprocess */)))
    return record(cudaErrorInvalidValue);
  *e = new CUevent_st{flags, false, 0, simt::current_device()};
  return cudaSuccess;
}
cudaError_t cudaEventCreate(cudaEvent_t* e) { return cudaEventCreateWithFlags(e, cudaEventDefault); }
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  if (cudaError_t e = sticky_error()) return e;
  const int device = simt::stream_device(s);
  if (!e || device < 0 || device != e->device) return record(cudaErrorInvalidResourceHandle);
  e->t = clock_of(s).record(s);
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t e) { return e ? cudaSuccess : record(cudaErrorInvalidResourceHandle); }
cudaError_t cudaEventSynchronize(cudaEvent_t e) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  if (cudaError_t e = sticky_error()) return e;
  if (!e) return record(cudaErrorInvalidResourceHandle);
  if (e->recorded) simt::DeviceClock::host_waits_until(e->t);
  return cudaSuccess;
}
// The event may be another device's: a stream waits for work on any GPU.
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  if (cudaError_t e = sticky_error()) return e;
  if (!e || simt::stream_device(s) < 0) return record(cudaErrorInvalidResourceHandle);
  if (e->recorded) clock_of(s).stream_waits_until(s, e->t);
  return cudaSuccess;
}

// Predicted GPU time between the events (CUDA's errors for unrecorded events and
// events created with cudaEventDisableTiming).
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  const simt::RuntimeLock lock(simt::RuntimeLock::Device);
  if (!ms) return record(cudaErrorInvalidValue);
  if (!a || !b) return record(cudaErrorInvalidResourceHandle);
  if (!a->recorded || !b->recorded) return record(cudaErrorInvalidResourceHandle);
  if ((a->flags | b->flags) & cudaEventDisableTiming) return record(cudaErrorInvalidResourceHandle);
  static bool warned = false;
  if (!simt::DeviceClock::model() && !warned) {
    warned = true;
    fmt::print(stderr, "simt: no kernel time model is linked into this program (libsimt_timing.so): "
                       "cudaEventElapsedTime returns 0 ms\n");
  }
  *ms = static_cast<float>((b->t - a->t) * 1e3);
  return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorImpl(int* blocks, const void* fn, int block_size,
                                                             std::size_t dynamic_shared) {
  const simt::RuntimeLock lock;
  if (!blocks || block_size <= 0) return record(cudaErrorInvalidValue);
  const simt::DeviceLimits& d = simt::device_limits();
  const std::size_t shared = dynamic_shared + simt::kernel_static_shared_bytes(fn);
  if (unsigned(block_size) > d.max_threads_per_block ||
      shared > std::max<std::size_t>(d.shared_per_block, simt::dynamic_shared_limit(fn))) {
    *blocks = 0;  // CUDA: the block fits on no SM
    return cudaSuccess;
  }
  *blocks = simt::resident_blocks_per_sm(unsigned(block_size), shared);
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttributeImpl(const void* fn, cudaFuncAttribute attr, int value) {
  const simt::RuntimeLock lock;
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0 ||
      std::size_t(value) > simt::device_limits().shared_per_block_optin)
    return record(cudaErrorInvalidValue);
  simt::set_dynamic_shared_limit(fn, static_cast<std::size_t>(value));
  return cudaSuccess;
}

// Peer access: GPUs of one node reach each other over the node's link (NVLink);
// across nodes there is no peer access (CUDA reports 0, as for GPUs in other machines).
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device) {
  const simt::RuntimeLock lock;
  if (!can_access) return record(cudaErrorInvalidValue);
  if (!simt::valid_device(device) || !simt::valid_device(peer_device)) return record(cudaErrorInvalidDevice);
  *can_access = device != peer_device && simt::node_of(device) == simt::node_of(peer_device);
  return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags) {
  const simt::RuntimeLock lock;
  if (flags != 0) return record(cudaErrorInvalidValue);
  const int device = simt::current_device();
  if (!simt::valid_device(peer_device) || peer_device == device) return record(cudaErrorInvalidDevice);
  if (simt::node_of(device) != simt::node_of(peer_device)) return record(cudaErrorPeerAccessUnsupported);
  if (!simt::set_peer_access(device, peer_device, true)) return record(cudaErrorPeerAccessAlreadyEnabled);
  return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer_device) {
  const simt::RuntimeLock lock;
  if (!simt::valid_device(peer_device)) return record(cudaErrorInvalidDevice);
  if (!simt::set_peer_access(simt::current_device(), peer_device, false)) return record(cudaErrorPeerAccessNotEnabled);
  return cudaSuccess;
}

namespace {
// Both ranges must be device memory of the devices named.
cudaError_t check_peer_copy(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  if (!simt::valid_device(dst_device) || !simt::valid_device(src_device)) return cudaErrorInvalidDevice;
  if (!dst || !src || !is_device_range(dst, bytes) || !is_device_range(src, bytes)) return cudaErrorInvalidValue;
  if (device_of(dst) != dst_device || device_of(src) != src_device) return cudaErrorInvalidValue;
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream) {
  const simt::RuntimeLock lock;
  if (cudaError_t e = sticky_error()) return e;
  if (simt::stream_device(stream) < 0) return record(cudaErrorInvalidResourceHandle);
  if (bytes == 0) return cudaSuccess;
  if (cudaError_t e = check_peer_copy(dst, dst_device, src, src_device, bytes)) return record(e);
  simt::WorkKind what{};
  const void* host = nullptr;
  if (cudaError_t e = copy_now(dst, src, bytes, cudaMemcpyDeviceToDevice, what, host)) return e;
  place_transfer(what, bytes, stream, "cudaMemcpyPeerAsync", nullptr, src_device, dst_device);
  return cudaSuccess;
}

// Synchronous with respect to the host, as cudaMemcpy.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes) {
  const simt::RuntimeLock lock;
  if (cudaError_t f = take_fault()) return record(f);
  if (bytes == 0) return cudaSuccess;
  if (cudaError_t e = check_peer_copy(dst, dst_device, src, src_device, bytes)) return record(e);
  simt::WorkKind what{};
  const void* host = nullptr;
  if (cudaError_t e = copy_now(dst, src, bytes, cudaMemcpyDeviceToDevice, what, host)) return e;
  simt::DeviceClock::host_waits_until(place_transfer(what, bytes, nullptr, "cudaMemcpyPeer", nullptr, src_device, dst_device));
  return cudaSuccess;
}
