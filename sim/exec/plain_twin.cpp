#include "sim/exec/plain_twin.hpp"

#include "sim/state/context.hpp"

#include <mutex>
#include <unordered_set>

extern "C" {
thread_local constinit std::uint8_t __simt_plain_block SIMT_FAST_TLS = 0;
}

namespace simt {

namespace {

std::mutex g_mutex;
std::unordered_set<const void*> g_twinned;

}  // namespace

bool has_plain_twin(const void* kernel_fn) {
  std::lock_guard lock(g_mutex);
  return g_twinned.count(kernel_fn) != 0;
}

}  // namespace simt

extern "C" void __simt_register_twins(const void* const* kernels, unsigned count) {
  std::lock_guard lock(simt::g_mutex);
  simt::g_twinned.insert(kernels, kernels + count);
}
