// What one simulated thread records while it runs: its memory accesses (to be
// grouped into warp-level instructions later) and its per-site arithmetic counts.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace simt {

enum class Space : std::uint8_t { Global, Shared };
enum class MemOp : std::uint8_t { Load, Store, Atomic };

// A "site" is the machine-code address of the call that made the access or the
// operation; each site maps to one source line (sim/symbols.cpp).
using Site = const void*;

// 16 bytes: a kernel makes many of these between two barriers. User-space
// addresses fit in 48 bits, which leaves room for the size, operation and space.
struct MemEvent {
  Site site;
  std::uint64_t packed;

  static MemEvent make(Site site, std::uint64_t addr, std::uint32_t size, MemOp op, Space space) {
    return {site, addr | std::uint64_t(size) << 48 | std::uint64_t(op) << 56 | std::uint64_t(space) << 58};
  }
  std::uint64_t addr() const { return packed & ((std::uint64_t(1) << 48) - 1); }
  std::uint32_t size() const { return static_cast<std::uint32_t>(packed >> 48 & 0xFF); }
  MemOp op() const { return static_cast<MemOp>(packed >> 56 & 3); }
  Space space() const { return static_cast<Space>(packed >> 58 & 1); }
};

// Floating-point operation kinds, in the order of the Nsight Compute metrics
// smsp__sass_thread_inst_executed_op_{fadd,fmul,ffma,dadd,dmul,dfma,hadd,hmul,hfma}_pred_on.
// Division and square root are not single SASS instructions; they are counted on
// their own (docs/counters.md, "Fidelity limits").
enum class FpOp : std::uint8_t { FAdd, FMul, FFma, DAdd, DMul, DFma, FDiv, DDiv, FSqrt, DSqrt, Count };
constexpr int kFpOpCount = static_cast<int>(FpOp::Count);

// Per-thread, per-site operation counts: a small direct-mapped table because a
// kernel's inner loop touches only a handful of sites.
class SiteCounts {
 public:
  struct Entry {
    Site site = nullptr;
    std::uint32_t kind = 0;  // FpOp, or kWarpOpKind for collectives
    std::uint64_t count = 0;
  };
  void add(Site site, std::uint32_t kind) {
    const std::size_t slot = (reinterpret_cast<std::uintptr_t>(site) >> 2) & (kSlots - 1);
    Entry& e = slots_[slot];
    if (e.site == site) { ++e.count; return; }
    if (e.site == nullptr) {
      e = {site, kind, 1};
      used_.push_back(static_cast<std::uint8_t>(slot));
      return;
    }
    add_overflow(site, kind);
  }
  template <class F> void for_each(F&& f) const {
    for (std::uint8_t i : used_) f(slots_[i]);
    for (const Entry& e : overflow_) f(e);
  }
  // Cheap when few sites were used, which is the common case: only those are reset.
  void clear() {
    for (std::uint8_t i : used_) slots_[i] = Entry{};
    used_.clear();
    overflow_.clear();
  }

 private:
  static constexpr std::size_t kSlots = 64;
  void add_overflow(Site site, std::uint32_t kind) {
    for (Entry& e : overflow_) if (e.site == site) { ++e.count; return; }
    overflow_.push_back({site, kind, 1});
  }
  std::array<Entry, kSlots> slots_{};
  std::vector<std::uint8_t> used_;
  std::vector<Entry> overflow_;
};

}  // namespace simt
