// What the lanes of one warp accessed in memory since the block's last barrier.
//
// Lanes run one after another, each up to the next barrier or collective. Lane L's
// k-th access is written into row k, column L. While every lane follows the same
// sequence of sites (a convergent warp, the common case), row k *is* the warp's
// k-th memory instruction: counting needs no grouping pass, and the checks that can
// wait (races, uninitialised reads, the DRAM estimate) run over whole rows at the
// barrier. The first lane that meets another site than its row's, or arrives after
// a different number of warp collectives, turns the warp divergent: its rows become
// per-lane logs, grouped at the barrier by the general rule (group_warp_accesses),
// and its later accesses are checked as they happen.
#pragma once
#include "sim/types/events.hpp"
#include "sim/memory/warp_access.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace simt {

class WarpLog {
 public:
  WarpLog() = default;
  WarpLog(const WarpLog&) = delete;  // points into its own storage
  WarpLog& operator=(const WarpLog&) = delete;

  // What must agree for two lanes' accesses to be one instruction, besides the site.
  static std::uint64_t shape(std::uint32_t size, MemOp op, Space space, std::uint32_t sync_count) {
    return size | std::uint64_t(op) << 8 | std::uint64_t(space) << 16 | std::uint64_t(sync_count) << 32;
  }

  // A warp logs at most this many rows, and a divergent warp's lane this many
  // accesses, between two barriers: a kernel whose threads loop for millions of
  // accesses with no barrier (llm.c's naive attention backward) would otherwise
  // hold them all. At the limit the lanes wait (Run::AtLogLimit) until the warp's
  // log is counted and checked, and go on with an empty one (Worker::flush_logs).
  static constexpr std::uint32_t kRowLimit = 1u << 14, kLaneLimit = 1u << 14;

  // Files the access, opening a row if needed. False when the warp is divergent,
  // the access does not fit the rows, or the rows are full (full()); the caller
  // switches to per-lane logs or waits for the log to be flushed.
  // Inlined into kernel code. A divergent warp has count_ 0, so it is only
  // looked at on the way to opening a row.
  bool record(unsigned lane, Site site, std::uint64_t addr, std::uint64_t shape) {
    const std::uint32_t k = seq_[lane];
    WarpAccess* row;
    if (k < count_) {
      if (keys_[k].site != site || keys_[k].shape != shape) return false;  // another instruction
      row = &rows_[k];
    } else {
      if (divergent_ || count_ >= kRowLimit) return false;
      row = open_row(site, shape, addr);
    }
    row->addr[lane] = addr;  // which lanes a row holds follows from seq_ (see rows())
    seq_[lane] = k + 1;
    return true;
  }

  bool divergent() const { return divergent_; }
  // A convergent warp's rows are all in use, or this lane's divergent log is full.
  bool full(unsigned lane) const {
    return divergent_ ? lanes_[lane].size() >= kLaneLimit : count_ >= kRowLimit && seq_[lane] >= count_;
  }
  // Rows so far become per-lane logs, in each lane's program order.
  void diverge();
  std::vector<MemEvent>& lane_log(unsigned lane) { return lanes_[lane]; }
  std::span<const std::vector<MemEvent>> lane_logs() const { return lanes_; }

  // The rows with their active masks: a lane has filled exactly rows [0, seq_[lane]).
  std::span<const WarpAccess> rows();
  bool has_shared_stores() const;  // among the rows
  // The warp's collective count when row k was opened: every lane in it agrees.
  std::uint32_t row_sync_count(std::size_t k) const { return static_cast<std::uint32_t>(keys_[k].shape >> 32); }

  void clear_interval();  // after the barrier has counted and checked everything
  void reset_block() {    // a new block starts on this warp slot
    clear_interval();
    sync_count = 0;
  }

  std::uint32_t sync_count = 0;  // completed collectives: orders this warp's accesses

 private:
  struct Key {
    Site site;
    std::uint64_t shape;
  };
  // Out of line: once per row, not once per lane. Where a load opens a row, the
  // spin watchdog looks at it (sim/exec/spin_watch.hpp).
  __attribute__((noinline)) WarpAccess* open_row(Site site, std::uint64_t shape, std::uint64_t addr);

  // What record() reads, together. A divergent warp has count_ 0.
  std::uint32_t count_ = 0;       // rows [0, count_) in use
  bool divergent_ = false;
  Key* keys_ = nullptr;           // point into the vectors below, which keep their
  WarpAccess* rows_ = nullptr;    // storage between intervals and blocks
  std::array<std::uint32_t, 32> seq_{};  // next row of each lane
  std::vector<Key> key_store_;
  std::vector<WarpAccess> row_store_;
  std::array<std::vector<MemEvent>, 32> lanes_;
};

}  // namespace simt
