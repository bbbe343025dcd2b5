#include "sim/shared_checks.hpp"

#include <fmt/format.h>

namespace simt {

void shared_race(BlockState& b, const SharedAccessor& who, MemOp op, std::uintptr_t word, std::uint16_t other,
                 bool other_wrote) {
  const std::string place = b.shared->describe(word);
  const std::string message =
      other_wrote
          ? fmt::format("data race on shared memory: this {} and a write by {} happen between the same two "
                        "barriers ({}); a __syncthreads() is missing",
                        op == MemOp::Load ? "read" : "write", b.thread_name(other), place)
          : fmt::format("data race on shared memory: this write and a read by {} happen between the same two "
                        "barriers ({}); a __syncthreads() is missing",
                        other == kManyReaders ? std::string("other threads") : b.thread_name(other), place);
  Diagnostic d = b.make_diag(DiagKind::SharedRace, message, &b.threads[who.thread], who.site);
  d.address = word;
  throw KernelFault(std::move(d));
}

void check_shared_rows(BlockState& b, unsigned warp, const WarpLog& log, SharedCheckFlags on) {
  if (!on.races && !on.uninitialized) return;
  SharedWindows& sw = *b.shared;
  const auto rows = log.rows();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const WarpAccess& row = rows[k];
    if (row.space != Space::Shared || row.op == MemOp::Atomic) continue;
    SharedAccessor who{0, log.row_sync_count(k), row.site};
    for (std::uint32_t active = row.active; active; active &= active - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctz(active));
      who.thread = static_cast<std::uint16_t>(warp * 32 + lane);
      if (row.size <= 4) check_shared_word(b, sw, row.addr[lane] & ~std::uint64_t(3), row.op, who, on);
      else check_shared_access(b, sw, row.addr[lane], row.size, row.op, who, on);
    }
  }
}

}  // namespace simt
