#include "sim/count/thread_tally.hpp"

#include "sim/memory/global_memory.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

namespace simt {

namespace {

auto key(const ThreadAccessTotal& t) { return std::make_tuple(t.base, static_cast<int>(t.op)); }

// Whether `a`'s busiest thread should stand for both: more accesses, or as many by
// a thread that comes first (block, then thread), whatever order the blocks ran in.
bool worse(const ThreadAccessTotal& a, const ThreadAccessTotal& b) {
  if (a.max_per_thread != b.max_per_thread) return a.max_per_thread > b.max_per_thread;
  return std::tie(a.worst_block, a.worst_thread) < std::tie(b.worst_block, b.worst_thread);
}

void merge_one(ThreadAccessTotals& into, const ThreadAccessTotal& t) {
  auto it = std::lower_bound(into.begin(), into.end(), t, [](const auto& x, const auto& y) { return key(x) < key(y); });
  if (it == into.end() || key(*it) != key(t)) {
    into.insert(it, t);
    return;
  }
  it->total += t.total;
  it->max_per_block = std::max(it->max_per_block, t.max_per_block);
  if (worse(t, *it)) {
    it->max_per_thread = t.max_per_thread;
    it->worst_block = t.worst_block;
    it->worst_thread = t.worst_thread;
    it->worst_site = t.worst_site;
  }
}

}  // namespace

void merge_thread_totals(ThreadAccessTotals& into, const ThreadAccessTotals& from) {
  for (const ThreadAccessTotal& t : from) merge_one(into, t);
}

void BlockThreadTally::begin_block(unsigned nthreads) {
  nthreads_ = nthreads;
  slots_.clear();
  counts_.clear();
  last_site_.clear();
  last_slot_ = ~0u;
  alloc_base_ = alloc_bytes_ = 0;  // an allocation may have been freed since the last launch
}

unsigned BlockThreadTally::slot_of(std::uint64_t addr, std::uint32_t size, MemOp op) {
  if (addr - alloc_base_ >= alloc_bytes_) {
    const Allocation* a = GlobalMemory::instance().find(addr, size);
    if (!a) return ~0u;  // the bounds check faults first: a counted access lies in an allocation
    alloc_base_ = a->base;
    alloc_bytes_ = a->size;
  }
  for (unsigned s = 0; s < slots_.size(); ++s)
    if (slots_[s].base == alloc_base_ && slots_[s].op == op) return s;
  slots_.push_back({alloc_base_, alloc_bytes_, op});
  counts_.resize(slots_.size() * nthreads_, 0);
  last_site_.resize(slots_.size() * nthreads_, nullptr);
  return static_cast<unsigned>(slots_.size() - 1);
}

void BlockThreadTally::add(const WarpAccess& row, unsigned warp) {
  // A thread's atomics are one tally whether the GPU runs them as ATOM or RED.
  const MemOp op = is_atomic(row.op) ? MemOp::Atomic : row.op;
  for (std::uint32_t m = row.active; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(m));
    const unsigned thread = warp * 32 + lane;
    if (thread >= nthreads_) continue;
    const std::uint64_t a = row.addr[lane];
    unsigned s = last_slot_;
    if (s == ~0u || slots_[s].op != op || a - slots_[s].base >= slots_[s].bytes) {
      s = slot_of(a, row.size, op);
      if (s == ~0u) continue;
      last_slot_ = s;
    }
    const std::size_t k = std::size_t(s) * nthreads_ + thread;
    ++counts_[k];
    last_site_[k] = row.site;
  }
}

void BlockThreadTally::fold_into(ThreadAccessTotals& launch, std::uint64_t block_linear) const {
  for (std::size_t s = 0; s < slots_.size(); ++s) {
    ThreadAccessTotal t;
    t.base = slots_[s].base;
    t.bytes = slots_[s].bytes;
    t.op = slots_[s].op;
    t.worst_block = block_linear;
    const std::uint32_t* c = counts_.data() + s * nthreads_;
    for (unsigned i = 0; i < nthreads_; ++i) {
      t.total += c[i];
      if (c[i] > t.max_per_thread) {  // strictly more: the lowest thread of a tie
        t.max_per_thread = c[i];
        t.worst_thread = i;
        t.worst_site = last_site_[s * nthreads_ + i];
      }
    }
    t.max_per_block = t.total;
    merge_one(launch, t);
  }
}

}  // namespace simt
