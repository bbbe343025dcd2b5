// Plain twins: the compiler pass's copy of each kernel without counting
// (sim/compiler/pass/plain_twin.cpp). A worker runs a block through it when the
// launch runs that block uncounted (a sampled launch, sim/shortcuts/sampling.hpp).
#pragma once
#include <cstdint>

extern "C" {
// Set by a worker while it runs a block uncounted: kernels with a twin call it.
extern thread_local std::uint8_t __simt_plain_block;
void __simt_register_twins(const void* const* kernels, unsigned count);
// Called by the twin's global accesses when its lane has had its turn (plain_twin.cpp).
void __simt_plain_pace();
}

namespace simt {

bool has_plain_twin(const void* kernel_fn);

// Sets the lanes' pace (SIMT_OPTIONS plain_pace) before a worker runs a block uncounted.
void start_plain_pace();

}  // namespace simt
