#include "sim/exec/block_work.hpp"

namespace simt {

BlockWork block_work(std::uint64_t block, const Counters& before, const Counters& after) {
  auto delta = [&](Counter c) { return double(after[c] - before[c]); };
  const double memory = delta(Counter::GlobalLdRequests) + delta(Counter::GlobalStRequests) +
                        delta(Counter::GlobalAtomRequests) + delta(Counter::GlobalRedRequests) + delta(Counter::SharedLdInst) +
                        delta(Counter::SharedStInst) + delta(Counter::SharedAtomInst);
  return {block, {delta(Counter::InstExecuted), double(after.flops()) - double(before.flops()), memory}};
}

}  // namespace simt
