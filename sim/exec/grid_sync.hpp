// The grid-wide barrier of a cooperative launch (cudaLaunchCooperativeKernel,
// cooperative_groups::grid_group::sync()). Every block of the launch is live at once,
// each on its own worker (host thread), but only one runs at a time: a turn passes
// from block to block in linear order. A block runs until all its remaining threads
// wait at grid.sync() (it *arrives*) or have exited (it is *done*), then hands the
// turn to the next block that is not done. When the turn passes the last block, every
// block has arrived or is done: the barrier completes (a new phase) and the turn
// starts again at the first block not done. The order is fixed, so a cooperative
// launch runs the same way every time, whatever the host's cores do.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <semaphore>
#include <vector>

namespace simt {

class GridSync {
 public:
  // `tag`: the launch's race tag (LaunchContext::tag), renewed at each completed
  // barrier by `renew_tag` so that global accesses of different phases never race.
  GridSync(std::uint64_t nblocks, std::uint16_t* tag, std::uint16_t (*renew_tag)())
      : done_(nblocks, 0), tag_(tag), renew_tag_(renew_tag), exited_block_(nblocks) {
    turns_.reserve(nblocks);
    for (std::uint64_t b = 0; b < nblocks; ++b) turns_.push_back(std::make_unique<std::counting_semaphore<>>(b == 0));
  }

  // Waits for block b's turn; false when the launch failed meanwhile (stop).
  bool wait_turn(std::uint64_t b) {
    turns_[b]->acquire();
    return !stopped_.load(std::memory_order_acquire);
  }
  // Block b (holding the turn) waits at the grid barrier: the turn moves on, and
  // comes back once every block has arrived or is done. False: stop.
  bool arrive(std::uint64_t b) {
    pass(b);
    return wait_turn(b);
  }
  // Block b (holding the turn) has finished, or stopped because the launch failed.
  void finish(std::uint64_t b) {
    done_[b] = 1;
    pass(b);
  }
  // A block failed: every block still waiting for its turn stops (its fibers are
  // unwound without a diagnostic of its own).
  void stop() {
    if (stopped_.exchange(true)) return;
    for (auto& turn : turns_) turn->release();  // a finished block never waits again
  }
  bool stopped() const { return stopped_.load(std::memory_order_acquire); }
  std::uint32_t barriers() const { return barriers_; }  // grid barriers completed
  // The first block that had exited when a grid barrier completed, or the block
  // count if none: CUDA 13's grid barrier waits for every block of the grid to
  // arrive, so on the GPU that barrier never completes (here it counts as arrived).
  std::uint64_t exited_block() const { return exited_block_; }

 private:
  void pass(std::uint64_t from) {
    if (stopped()) return;  // stop() woke every waiter already
    const std::uint64_t n = done_.size();
    std::uint64_t next = from + 1;
    while (next < n && done_[next]) ++next;
    if (next == n) {  // every block arrived or is done: the barrier completes
      next = 0;
      while (next < n && done_[next]) ++next;
      if (next == n) return;  // the launch is over
      ++barriers_;
      for (std::uint64_t b = 0; b < n && exited_block_ == n; ++b)
        if (done_[b]) exited_block_ = b;
      *tag_ = renew_tag_();
    }
    turns_[next]->release();
  }

  std::vector<std::unique_ptr<std::counting_semaphore<>>> turns_;
  std::vector<std::uint8_t> done_;  // read and written only by the block holding the turn
  std::uint16_t* tag_;
  std::uint16_t (*renew_tag_)();
  std::uint32_t barriers_ = 0;
  std::uint64_t exited_block_;
  std::atomic<bool> stopped_{false};
};

}  // namespace simt
