#include "sim/count/instruction_cost.hpp"
#include "sim/count/atomic_rule.hpp"
#include "sim/count/l1_rule.hpp"

#include <bit>

namespace simt {

InstructionCost cost_of(const WarpAccess& a) {
  InstructionCost cost;
  if (a.space == Space::Global) {
    std::uint64_t sectors[64];
    const std::uint32_t n = distinct_sectors(a, sectors);
    cost.l1_cycles = l1_data_cycles(sectors, n);
    cost.sectors = is_atomic(a.op) ? atomic_sectors(a) : n;
  } else if (!is_atomic(a.op)) {
    cost.shared = shared_wavefronts(a);
  }
  return cost;
}

void count_access(const WarpAccess& a, const InstructionCost& cost, Counters& c) {
  const SharedCost& s = cost.shared;
  // A full warp is the usual case; without -mpopcnt std::popcount is a library call.
  const unsigned lanes = a.active == ~0u ? 32u : static_cast<unsigned>(std::popcount(a.active));
  c[Counter::WarpInst] += 1;
  c[Counter::ThreadInst] += lanes;
  if (a.space == Space::Global) {
    const std::uint32_t sectors = cost.sectors;
    c[Counter::GlobalL1DataCycles] += cost.l1_cycles;
    switch (a.op) {
      case MemOp::Load:
        c[Counter::GlobalLdRequests] += 1;
        c[Counter::GlobalLdSectors] += sectors;
        c[Counter::GlobalLdBytes] += std::uint64_t(lanes) * a.size;
        break;
      case MemOp::Store:
        c[Counter::GlobalStRequests] += 1;
        c[Counter::GlobalStSectors] += sectors;
        c[Counter::GlobalStBytes] += std::uint64_t(lanes) * a.size;
        break;
      case MemOp::Atomic:
        c[Counter::GlobalAtomRequests] += 1;
        c[Counter::GlobalAtomSectors] += sectors;
        break;
      case MemOp::Red:
        c[Counter::GlobalRedRequests] += 1;
        c[Counter::GlobalRedSectors] += sectors;
        break;
    }
    return;
  }
  if (is_atomic(a.op)) {  // shared memory has no RED: an unused result is an ATOMS too
    c[Counter::SharedAtomInst] += 1;
    return;
  }
  const bool load = a.op == MemOp::Load;
  c[load ? Counter::SharedLdInst : Counter::SharedStInst] += 1;
  c[load ? Counter::SharedLdWavefronts : Counter::SharedStWavefronts] += s.wavefronts;
  c[load ? Counter::SharedLdConflicts : Counter::SharedStConflicts] += s.wavefronts - s.ideal;
}

}  // namespace simt
