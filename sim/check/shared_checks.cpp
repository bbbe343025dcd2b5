#include "sim/check/shared_checks.hpp"
#include "sim/check/repeated_store.hpp"

#include <fmt/format.h>

#include <bit>

namespace simt {

void shared_race(BlockState& b, const SharedAccessor& who, MemOp op, std::uintptr_t word, std::uint16_t other,
                 bool other_wrote) {
  const std::string place = b.shared->describe(word);
  const std::string message =
      other_wrote
          ? fmt::format("data race on shared memory: this {} and a write by {} happen between the same two "
                        "barriers ({}); a __syncthreads() is missing",
                        op == MemOp::Load ? "read" : "write", b.thread_name(other), place)
          : fmt::format("data race on shared memory: this write and a read by {} happen between the same two "
                        "barriers ({}); a __syncthreads() is missing",
                        other == kManyReaders    ? std::string("other threads")
                        : other & kWarpReaders ? fmt::format("other threads of warp {}", other & 0x7FFF)
                                               : b.thread_name(other),
                        place);
  Diagnostic d = b.make_diag(DiagKind::SharedRace, message, &b.threads[who.thread], who.site);
  d.address = word;
  throw KernelFault(std::move(d));
}

namespace {

// One word read by the lanes in `lanes` of one instruction: the same outcome as
// checking each lane in turn, with one visit to the shadow.
void check_shared_read(BlockState& b, SharedWindows& sw, std::uint64_t word_index, std::uint32_t lanes,
                       unsigned warp, std::uint32_t sync_count, Site site, SharedCheckFlags on) {
  const std::uintptr_t word = word_index << 2;
  SharedShadow& s = sw.window_of(word).at(word);
  const std::uint32_t now = sw.interval;
  const auto first = static_cast<std::uint16_t>(warp * 32 + std::countr_zero(lanes));
  if (s.w_interval < sw.block_start) {  // this block never wrote it
    if (on.uninitialized) sw.pending.push_back({word, first, site});
  } else if (on.races && s.w_interval == now) {
    const bool writer_in_warp = s.w_thread / 32 == warp;
    if (!(writer_in_warp && sync_count > s.w_sync)) {  // not ordered by a collective
      const std::uint32_t others = writer_in_warp ? lanes & ~(1u << (s.w_thread % 32)) : lanes;
      if (others)
        shared_race(b, {static_cast<std::uint16_t>(warp * 32 + std::countr_zero(others)), sync_count, site},
                    MemOp::Load, word, s.w_thread, true);
    }
  }
  // Reader bookkeeping, for writes later in this interval. Once several threads
  // have read the word in this interval there is nothing left to note.
  if (!on.note_readers) return;
  const std::uint16_t row_readers =
      (lanes & (lanes - 1)) ? static_cast<std::uint16_t>(kWarpReaders | warp) : first;
  if (s.r_interval == now) {
    if (s.r_thread == kManyReaders) return;
    s.r_thread = add_reader(s.r_thread, row_readers & kWarpReaders ? first : row_readers);
    if (row_readers & kWarpReaders && s.r_thread != kManyReaders) s.r_thread = row_readers;
  } else {
    s.r_interval = now;
    s.r_thread = row_readers;
  }
  s.r_sync = sync_count;
}

}  // namespace

void check_shared_row(BlockState& b, unsigned warp, const WarpAccess& row, std::uint32_t sync_count,
                      SharedCheckFlags on, const SharedPattern* pattern) {
  SharedWindows& sw = *b.shared;
  if (row.op == MemOp::Load && !on.check_loads) return;
  if (pattern && pattern->one_wavefront && row.op == MemOp::Load) {
    const std::uint64_t base = row.addr[std::countr_zero(row.active)] >> 2;
    for (std::uint32_t i = 0; i < pattern->words; ++i)
      check_shared_read(b, sw, base + pattern->word_offset[i], pattern->lanes[i], warp, sync_count, row.site, on);
    return;
  }
  SharedAccessor who{0, sync_count, row.site};
  const bool repeats = has_repeated_stores(row);
  for (std::uint32_t active = row.active; active; active &= active - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(active));
    if (repeats && repeats_earlier_store(row, lane)) continue;
    who.thread = static_cast<std::uint16_t>(warp * 32 + lane);
    check_shared_access(b, sw, row.addr[lane], row.size, row.op, who, on);
  }
}

}  // namespace simt
