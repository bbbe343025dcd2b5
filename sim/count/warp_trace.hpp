// A sample of warp-level memory instructions with every lane's address, kept per
// source site (SIMT_OPTIONS=trace_warps=N): the first N rows of each site in a
// launch, for pictures of an access pattern (plots/access_pattern.py, plots/bank_map.py).
// Not an Nsight Compute counter.
//
// "The first" is by (block linear index, warp, the row's place among its block's
// counted rows), the smallest N keys of each site: each worker keeps its own N and
// the launch keeps the N smallest of theirs, so the sample does not depend on how
// many workers ran the launch or which blocks each took.
#pragma once
#include "sim/memory/warp_access.hpp"

#include <cstdint>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace simt {

struct TracedAccess {
  std::uint64_t block = 0;  // linear block index
  std::uint32_t warp = 0;   // within the block
  std::uint32_t seq = 0;    // the row's place among its block's counted rows
  WarpAccess row;           // site, op, space, size, active lanes, addresses
  // A shared row's lanes as byte offsets from the start of the block's shared memory
  // (of its __shared__ variables, or of its extern __shared__ buffer); 0 otherwise.
  std::uint32_t shared_offset[32] = {};

  auto key() const { return std::make_tuple(block, warp, seq); }
};

// The launch's sample: sorted by site, then key.
using AccessTrace = std::vector<TracedAccess>;

// Up to N rows per site, the ones with the smallest keys seen so far.
class WarpTrace {
 public:
  explicit WarpTrace(unsigned per_site = 0) : n_(per_site) {}
  // For the next launch; what is kept stays until merge_from() or take() empties it.
  void set_per_site(unsigned per_site) { n_ = per_site; }
  unsigned per_site() const { return n_; }
  // Whether a row of `site` with this key would be kept (cheap: no copy).
  bool wants(Site site, std::uint64_t block, std::uint32_t warp, std::uint32_t seq);
  void add(const TracedAccess& t);                 // wants() first
  void merge_from(WarpTrace& other);               // and empties `other`
  AccessTrace take();                              // sorted; leaves this empty
  bool empty() const { return by_site_.empty(); }

 private:
  unsigned n_ = 0;
  std::unordered_map<Site, std::vector<TracedAccess>> by_site_;  // each sorted by key, at most n_
};

}  // namespace simt
