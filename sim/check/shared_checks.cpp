#include "sim/check/shared_checks.hpp"
#include "sim/check/repeated_store.hpp"

#include <fmt/format.h>

#include <bit>

namespace simt {

void shared_race(BlockState& b, const SharedAccessor& who, MemOp op, std::uintptr_t word, std::uint16_t other,
                 bool other_wrote) {
  const int other_warp = other == kManyReaders ? -1 : other & kWarpReaders ? int(other & 0x7FFF) : int(other / 32);
  if (excused_conflict(b, who.thread, who.site, other_warp)) return;
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

void check_shared_bytes(BlockState& b, SharedWindows& sw, SharedWindow& win, std::uintptr_t word, MemOp op,
                        const SharedAccessor& who, SharedCheckFlags on, unsigned bytes) {
  SharedShadow& s = win.at(word);
  ByteShadow& r = win.bytes_at(word);
  const std::uint32_t now = sw.interval;
  if (!s.split) {  // the word's history so far was whole-word: every byte inherits it
    for (int i = 0; i < 4; ++i) {
      r.w_interval[i] = s.w_interval, r.w_thread[i] = s.w_thread, r.w_sync[i] = s.w_sync;
      r.r_interval[i] = s.r_interval, r.r_thread[i] = s.r_thread, r.r_sync[i] = s.r_sync;
    }
    s.split = true;
  }
  for (int i = 0; i < 4; ++i) {
    if (!(bytes >> i & 1u)) continue;
    if (on.races && r.w_interval[i] == now && r.w_thread[i] != who.thread &&
        !ordered_after(who, r.w_thread[i], r.w_sync[i]))
      shared_race(b, who, op, word, r.w_thread[i], true);
    if (op == MemOp::Store) {
      if (on.races && r.r_interval[i] == now && r.r_thread[i] != who.thread &&
          !ordered_after(who, r.r_thread[i], r.r_sync[i]))
        shared_race(b, who, op, word, r.r_thread[i], false);
      r.w_interval[i] = now, r.w_thread[i] = who.thread, r.w_sync[i] = who.sync_count;
    } else {
      r.r_thread[i] = r.r_interval[i] != now ? who.thread : next_readers(b, r.r_thread[i], who.thread);
      r.r_interval[i] = now, r.r_sync[i] = who.sync_count;
    }
  }
  // The word's own record: what the block wrote (uninitialised reads are judged by
  // word) and the last access.
  if (op == MemOp::Store) {
    if (s.w_interval < sw.block_start && sw.unwritten_words > 0) --sw.unwritten_words;
    sw.stores_this_interval = true;
    s.w_interval = now, s.w_thread = who.thread, s.w_sync = who.sync_count;
  } else {
    if (on.uninitialized && s.w_interval < sw.block_start) sw.pending.push_back({word, who.thread, who.site});
    s.r_thread = s.r_interval != now ? who.thread : next_readers(b, s.r_thread, who.thread);
    s.r_interval = now, s.r_sync = who.sync_count;
  }
}

namespace {

// One word read by the lanes in `lanes` of one instruction: the same outcome as
// checking each lane in turn, with one visit to the shadow.
void check_shared_read(BlockState& b, SharedWindows& sw, std::uint64_t word_index, std::uint32_t lanes,
                       unsigned warp, std::uint32_t sync_count, Site site, SharedCheckFlags on) {
  const std::uintptr_t word = word_index << 2;
  SharedWindow& win = sw.window_of(word);
  SharedShadow& s = win.at(word);
  if (s.split) {  // whole words read, but their bytes have writers of their own
    for (std::uint32_t l = lanes; l; l &= l - 1)
      check_shared_bytes(b, sw, win, word, MemOp::Load,
                         {static_cast<std::uint16_t>(warp * 32 + std::countr_zero(l)), sync_count, site}, on, 0xF);
    return;
  }
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
  if (pattern && pattern->one_wavefront && row.op == MemOp::Load && row.size >= 4) {
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
