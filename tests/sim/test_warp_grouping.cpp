// A divergent warp's lane logs become warp instructions (sim/count/warp_grouping.hpp):
// the k-th execution of a site by each lane is one instruction, instructions in the
// order they first appear. Checked against that rule written plainly, on logs long
// enough to cross the grouping's windows and with more sites than its short list.
#include "sim/count/warp_grouping.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

using namespace simt;

namespace {

// The rule as stated: (site, k) names an instruction.
std::vector<WarpAccess> group_plainly(const std::array<std::vector<MemEvent>, 32>& lanes) {
  std::vector<WarpAccess> out;
  std::map<std::pair<Site, std::size_t>, std::size_t> instruction;
  for (unsigned lane = 0; lane < 32; ++lane) {
    std::map<Site, std::size_t> seen;
    for (const MemEvent& e : lanes[lane]) {
      const auto key = std::make_pair(e.site, seen[e.site]++);
      auto [it, fresh] = instruction.emplace(key, out.size());
      if (fresh) {
        WarpAccess w;
        w.site = e.site;
        w.op = e.op();
        w.space = e.space();
        w.size = e.size();
        out.push_back(w);
      }
      WarpAccess& w = out[it->second];
      w.active |= 1u << lane;
      w.addr[lane] = e.addr();
    }
  }
  return out;
}

Site site(int i) { return reinterpret_cast<Site>(std::uintptr_t(0x1000 + 16 * i)); }

// Lane l runs a causal row loop: rows l .. l + rows, row r reading `sites` sites r + 1
// times, then a store: lanes execute each site a different number of times.
std::array<std::vector<MemEvent>, 32> causal_rows(int rows, int sites) {
  std::array<std::vector<MemEvent>, 32> lanes;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (int r = int(lane); r < int(lane) + rows; ++r) {
      for (int k = 0; k <= r; ++k)
        for (int s = 0; s < sites; ++s)
          lanes[lane].push_back(MemEvent::make(site(s), 0x10000 + 4096 * r + 4 * k + 128 * s, 4, MemOp::Load,
                                               Space::Global));
      lanes[lane].push_back(MemEvent::make(site(sites), 0x900000 + 4 * lane + 4096 * r, 4, MemOp::Store,
                                           Space::Global));
    }
  return lanes;
}

void check_same(const std::array<std::vector<MemEvent>, 32>& logs) {
  std::array<const std::vector<MemEvent>*, 32> lanes{};
  for (unsigned l = 0; l < 32; ++l) lanes[l] = &logs[l];
  std::vector<WarpAccess> got;
  group_warp_accesses(lanes, got);
  const std::vector<WarpAccess> want = group_plainly(logs);
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i].site == want[i].site);
    CHECK(got[i].op == want[i].op);
    REQUIRE(got[i].active == want[i].active);
    for (unsigned l = 0; l < 32; ++l)
      if (want[i].active >> l & 1) CHECK(got[i].addr[l] == want[i].addr[l]);
  }
}

}  // namespace

TEST_CASE("a divergent warp's k-th execution of a site is one instruction, in order of first appearance") {
  SUBCASE("three sites, lanes of unequal rows, logs past several windows") { check_same(causal_rows(6, 3)); }
  SUBCASE("more sites than the short list holds") { check_same(causal_rows(2, 40)); }
  SUBCASE("lanes that never ran and lanes with one access") {
    std::array<std::vector<MemEvent>, 32> logs;
    for (unsigned l = 0; l < 32; l += 3)
      for (unsigned k = 0; k <= l; ++k)
        logs[l].push_back(MemEvent::make(site(int(k % 2)), 0x20000 + 4 * l + 256 * k, 4, MemOp::Load, Space::Global));
    check_same(logs);
  }
}
