// A warp's re-reads (sim/count/warp_rereads.hpp): the sectors its previous load at the
// same site touched too, per warp and per site, forgotten at a new block.
#include "sim/count/warp_rereads.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using namespace simt;

namespace {

int site_a, site_b;  // two sites: any two distinct addresses

// 32 lanes each on its own row (rows 4 KiB apart), at byte `offset` of the row.
std::vector<std::uint64_t> row_walk(unsigned offset) {
  std::vector<std::uint64_t> sectors;
  for (std::uint64_t lane = 0; lane < 32; ++lane) sectors.push_back((lane * 4096 + offset) >> 5);
  return sectors;
}

std::uint32_t note(WarpRereads& r, unsigned warp, const void* site, const std::vector<std::uint64_t>& s) {
  return r.note(warp, site, s.data(), static_cast<std::uint32_t>(s.size()));
}

}  // namespace

TEST_CASE("a thread walking its own row re-reads each sector for eight 4-byte steps") {
  WarpRereads r;
  r.reset();
  std::uint32_t again = 0, sectors = 0;
  for (unsigned j = 0; j < 64; ++j) {  // 64 floats a lane: 8 sectors, each first read once
    const std::vector<std::uint64_t> s = row_walk(4 * j);
    again += note(r, 0, &site_a, s);
    sectors += static_cast<std::uint32_t>(s.size());
  }
  CHECK(sectors == 64 * 32);
  CHECK(again == 56 * 32);  // 7 of each 8 loads find the sectors of the load before
}

TEST_CASE("re-reads are per warp, per site, and forgotten at a new block") {
  WarpRereads r;
  r.reset();
  const std::vector<std::uint64_t> s = row_walk(0);
  CHECK(note(r, 0, &site_a, s) == 0);
  CHECK(note(r, 1, &site_a, s) == 0);  // another warp read them: not this warp's L1 line
  CHECK(note(r, 0, &site_b, s) == 0);  // another site of the same warp: its own last load
  CHECK(note(r, 0, &site_a, s) == 32);
  CHECK(note(r, 0, &site_a, row_walk(32)) == 0);  // the next sector of every row
  r.reset();
  CHECK(note(r, 0, &site_a, row_walk(32)) == 0);
}

TEST_CASE("a coalesced walk never re-reads: each load is the next 128 bytes") {
  WarpRereads r;
  r.reset();
  std::uint32_t again = 0;
  for (std::uint64_t j = 0; j < 16; ++j) {
    std::vector<std::uint64_t> s;
    for (std::uint64_t k = 0; k < 4; ++k) s.push_back(j * 4 + k);
    again += note(r, 3, &site_a, s);
  }
  CHECK(again == 0);
}
