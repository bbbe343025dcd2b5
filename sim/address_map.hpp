// A worker's map of the simulated device's memory, read on every access. It is
// thread-local (one worker = one host thread) so that classifying an address is a
// few comparisons against values at fixed offsets, with no pointer chasing.
#pragma once
#include "sim/context.hpp"

#include <cstdint>

namespace simt {

struct AddressMap {
  std::uintptr_t global_lo = 0, global_size = 0;    // the cudaMalloc arena
  std::uintptr_t statics_lo = 0, statics_size = 0;  // this worker's __shared__ variables
  const std::uint8_t* statics_allowed = nullptr;    // per word: a variable this launch may use
  std::uintptr_t dynamic_lo = 0, dynamic_bytes = 0, dynamic_reserved = 0;  // extern __shared__
  bool races = true, uninitialized = true;          // the launch's sanitizer switches
};

extern thread_local AddressMap t_address_map SIMT_FAST_TLS;

}  // namespace simt
