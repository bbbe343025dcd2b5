#include "sim/state/warp_log.hpp"

#include "sim/exec/spin_watch.hpp"

namespace simt {

WarpAccess* WarpLog::open_row(Site site, std::uint64_t shape, std::uint64_t addr) {
  // A thread that spins on a word without reaching a barrier runs past every row
  // the warp has, so each of its loads opens a row and passes here (the watchdog
  // needs no work on the inlined path): from the first load that opens a row on,
  // every later access of that lane does. Divergent warps' loads are watched
  // where they are filed (record_divergent, sim/exec/access.cpp).
  if (MemOp(shape >> 8 & 0xFF) == MemOp::Load)
    if (ThreadState* t = t_thread) watch_load(t, site, addr);
  if (count_ == row_store_.size()) {  // grow; storage is reused by later intervals and blocks
    const std::size_t n = row_store_.empty() ? 64 : row_store_.size() * 2;
    row_store_.resize(n);
    key_store_.resize(n);
    rows_ = row_store_.data();
    keys_ = key_store_.data();
  }
  keys_[count_] = {site, shape};
  WarpAccess& row = rows_[count_++];
  row.site = site;
  row.size = static_cast<std::uint32_t>(shape & 0xFF);
  row.op = static_cast<MemOp>(shape >> 8 & 0xFF);
  row.space = static_cast<Space>(shape >> 16 & 0xFF);
  return &row;
}

std::span<const WarpAccess> WarpLog::rows() {
  std::uint32_t complete = 0;  // lanes that filled every row: the usual case
  for (unsigned lane = 0; lane < 32; ++lane)
    if (seq_[lane] == count_) complete |= 1u << lane;
  for (std::uint32_t k = 0; k < count_; ++k) rows_[k].active = complete;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (std::uint32_t k = 0; k < seq_[lane] && seq_[lane] != count_; ++k) rows_[k].active |= 1u << lane;
  return {rows_, count_};
}

bool WarpLog::has_shared_stores() const {
  const std::uint64_t store = shape(0, MemOp::Store, Space::Shared, 0);
  for (std::uint32_t k = 0; k < count_; ++k)
    if ((keys_[k].shape & 0xFFFF00) == store) return true;
  return false;
}

void WarpLog::diverge() {
  rows();  // the active masks
  for (std::uint32_t k = 0; k < count_; ++k) {
    const WarpAccess& row = rows_[k];
    for (unsigned lane = 0; lane < 32; ++lane)
      if (row.active >> lane & 1) lanes_[lane].push_back(MemEvent::make(row.site, row.addr[lane], row.size, row.op, row.space));
  }
  count_ = 0;
  divergent_ = true;
}

void WarpLog::clear_interval() {
  count_ = 0;
  seq_.fill(0);
  if (divergent_)
    for (auto& l : lanes_) l.clear();
  divergent_ = false;
}

}  // namespace simt
