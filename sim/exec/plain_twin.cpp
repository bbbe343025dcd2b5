#include "sim/exec/plain_twin.hpp"

#include "sim/options/runtime_options.hpp"
#include "sim/state/block.hpp"
#include "sim/state/context.hpp"

#include <mutex>
#include <unordered_set>

extern "C" {
thread_local constinit std::uint8_t __simt_plain_block SIMT_FAST_TLS = 0;
}

namespace simt {

// Lanes of a block run one after another, each until it parks. A plain lane would
// park only at a barrier or a collective, so a lane spinning on a flag that a later
// lane of its block sets, with no barrier between (legal on a GPU, whose independent
// thread scheduling lets the other lane run), would spin for ever. Every so many
// global accesses a lane waits for the block's other lanes, as a counted lane does at
// its warp log's limit (SIMT_OPTIONS plain_pace; 0: never). Taking turns more often
// does not make a barrier-free sweep faster (tests/bench/column_sweep.sh: every 4,096
// accesses 4-11% slower on 16 threads), so turns are rare.
thread_local constinit std::uint32_t t_plain_pace_left SIMT_FAST_TLS = 0;

void start_plain_pace() {
  const std::uint64_t pace = runtime_options().plain_pace;
  t_plain_pace_left = pace == 0 || pace > UINT32_MAX ? UINT32_MAX : static_cast<std::uint32_t>(pace);
}

namespace {

std::mutex g_mutex;
std::unordered_set<const void*> g_twinned;

}  // namespace

bool has_plain_twin(const void* kernel_fn) {
  std::lock_guard lock(g_mutex);
  return g_twinned.count(kernel_fn) != 0;
}

}  // namespace simt

extern "C" void __simt_plain_pace() {
  const bool pacing = simt::runtime_options().plain_pace != 0;  // 0: counting down from the most, no turns
  simt::start_plain_pace();
  if (simt::ThreadState* t = simt::current_thread(); t && pacing) simt::wait_for_log_flush(t);
}

extern "C" void __simt_register_twins(const void* const* kernels, unsigned count) {
  std::lock_guard lock(simt::g_mutex);
  simt::g_twinned.insert(kernels, kernels + count);
}
