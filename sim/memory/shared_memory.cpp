#include "sim/memory/shared_memory.hpp"


#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <stdexcept>

namespace simt {

namespace {
constexpr std::size_t kDynamicReservation = 256 * 1024;  // above any device's per-block limit

std::uintptr_t this_workers_dynamic_buffer() {
  thread_local std::uintptr_t buffer = [] {
    void* p = mmap(nullptr, kDynamicReservation, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("simtlab: cannot reserve shared memory");
    return reinterpret_cast<std::uintptr_t>(p);
  }();
  return buffer;
}
}  // namespace

void SharedWindows::prepare(const Module& m, std::size_t dyn_bytes) {
  if (module != &m) {
    module = &m;
    std::uintptr_t tls = m.shared.empty() ? 0 : m.tls_block_of_this_thread();
    statics.lo = tls ? tls + m.shared_lo : 0;
    statics.hi = tls ? tls + m.shared_hi : 0;
    statics.shadow.assign((statics.hi - statics.lo + 3) / 4, SharedShadow{});
    statics.bytes.clear();
  }
  if (dynamic.lo == 0) {
    dynamic.lo = this_workers_dynamic_buffer();
    dynamic.hi = dynamic.lo + kDynamicReservation;
    dynamic.shadow.assign(kDynamicReservation / 4, SharedShadow{});
  }
  dynamic_bytes = dyn_bytes;
}

void SharedWindows::begin_block() {
  if (interval >= 0xF0000000u) {  // near wrapping: forget everything so old intervals cannot match
    std::fill(statics.shadow.begin(), statics.shadow.end(), SharedShadow{});
    std::fill(dynamic.shadow.begin(), dynamic.shadow.end(), SharedShadow{});
    statics.bytes.clear();
    dynamic.bytes.clear();
    interval = 0;
  }
  block_start = ++interval;
  stores_this_interval = false;
  unwritten_words = allowed_count_ + (dynamic_bytes + 3) / 4;
  pending.clear();
}

std::string SharedWindows::describe(std::uintptr_t a) const {
  if (dynamic.contains(a))
    return fmt::format("extern __shared__ buffer, byte offset {} of {} bytes requested at launch", a - dynamic.lo,
                       dynamic_bytes);
  if (statics.contains(a) && module) {
    std::uintptr_t tls = statics.lo - module->shared_lo;
    if (const SharedVariable* v = module->shared_at(a - tls))
      return fmt::format("__shared__ {} (byte offset {} of {})", v->name, a - tls - v->offset, v->size);
    return "between __shared__ variables";
  }
  return "outside shared memory";
}

std::string SharedWindows::describe_near_statics(std::uintptr_t a) const {
  constexpr std::uintptr_t kNear = kDynamicReservation;  // no block has more shared memory than this
  if (!module || statics.lo == 0 || a + kNear < statics.lo || a >= statics.hi + kNear) return "";
  const std::uintptr_t tls = statics.lo - module->shared_lo;
  const auto off = static_cast<std::intptr_t>(a - tls);
  // The variable whose end is closest below the address (past its end), else the
  // first one above it (before its start: a negative index).
  const SharedVariable* best = nullptr;
  std::intptr_t best_gap = 0;
  for (const SharedVariable& v : module->shared) {
    const auto start = static_cast<std::intptr_t>(v.offset), end = start + static_cast<std::intptr_t>(v.size);
    const std::intptr_t gap = off >= end ? off - end : start - off;
    if (best == nullptr || gap < best_gap) best = &v, best_gap = gap;
  }
  if (best == nullptr) return "";
  const auto rel = off - static_cast<std::intptr_t>(best->offset);
  return fmt::format("byte {} of __shared__ {} ({} bytes), {}", rel, best->name, best->size,
                     rel < 0 ? "before its start" : "past its end");
}

void SharedWindows::set_kernel(const std::string& full_name) {
  kernel_prefix_ = full_name + "::";
  allowed_.assign(statics.shadow.size() + 4, 0);
  allowed_count_ = 0;
  kernel_lo = 0;
  if (!module) return;
  std::uintptr_t own_lo = 0;  // of the kernel's own variables, before device functions'
  for (const SharedVariable& v : module->shared) {
    if (!belongs_to_launch(v)) continue;
    const std::uintptr_t at = statics.lo ? statics.lo + (v.offset - module->shared_lo) : 0;
    if (at && (kernel_lo == 0 || at < kernel_lo)) kernel_lo = at;
    if (at && v.name.compare(0, kernel_prefix_.size(), kernel_prefix_) == 0 && (own_lo == 0 || at < own_lo)) own_lo = at;
    for (std::uintptr_t o = v.offset; o < v.offset + v.size; o += 4) allowed_[(o - module->shared_lo) >> 2] = 1;
  }
  if (own_lo) kernel_lo = own_lo;
  for (std::uint8_t a : allowed_) allowed_count_ += a;
}

bool SharedWindows::belongs_to_launch(const SharedVariable& v) const {
  if (v.name.compare(0, kernel_prefix_.size(), kernel_prefix_) == 0) return true;
  // Another kernel's variable (kernels are tagged by __global__), or a device function's.
  return v.name.find("[abi:simt_kernel]") == std::string::npos;
}

}  // namespace simt
