// The content memo (sim/shortcuts/content_memo.hpp) and the allocator's reuse of freed
// ranges, below the executor: a digest that sees every byte and address, outputs
// written back only for the inputs they were learned from, learning only when the run
// stayed inside the sectors hashed, and freed ranges handed to the next allocation of
// the same span.
#include "sim/shortcuts/content_memo.hpp"
#include "sim/memory/global_memory.hpp"

#include <doctest/doctest.h>

#include <cstring>

using namespace simt;

namespace {

unsigned char* bytes_of(void* device) { return static_cast<unsigned char*>(GlobalMemory::instance().host_address(device)); }

SectorRuns runs_of(void* p, std::size_t bytes) { return {sectors_of_bytes(reinterpret_cast<std::uintptr_t>(p), bytes)}; }

LaunchKey key_for(const void* kernel) { return LaunchKey{kernel, dim3(1), dim3(32), 0, nullptr, {1, 2, 3}}; }

}  // namespace

TEST_CASE("a sector digest changes with any byte and with the sectors' place") {
  GlobalMemory& gm = GlobalMemory::instance();
  void* a = gm.allocate(4096);
  void* b = gm.allocate(4096);
  std::memset(bytes_of(a), 7, 4096);
  std::memset(bytes_of(b), 7, 4096);
  const ContentDigest before = digest_sectors(runs_of(a, 4096));
  CHECK(digest_sectors(runs_of(a, 4096)) == before);
  CHECK_FALSE(digest_sectors(runs_of(b, 4096)) == before);  // same bytes elsewhere
  bytes_of(a)[4000] ^= 1;
  CHECK_FALSE(digest_sectors(runs_of(a, 4096)) == before);
  gm.release(a), gm.release(b);
}

TEST_CASE("outputs are written back only when the inputs hash as before the run that produced them") {
  GlobalMemory& gm = GlobalMemory::instance();
  ContentMemo& memo = ContentMemo::instance();
  memo.forget();
  void* in = gm.allocate(256);
  void* out = gm.allocate(256);
  std::memset(bytes_of(in), 1, 256);
  std::memset(bytes_of(out), 9, 256);
  const int kernel = 0;
  const LaunchKey key = key_for(&kernel);
  const LaunchFootprint footprint{merge_runs(runs_of(in, 256), runs_of(out, 256)), runs_of(out, 256), false, true};

  CHECK_FALSE(memo.knows(key));
  memo.ran(key, std::nullopt, 0, footprint, true, "");  // the first run: learns the sectors
  REQUIRE(memo.knows(key));
  std::optional<ContentDigest> before = memo.digest_inputs(key);
  REQUIRE(before);
  CHECK_FALSE(memo.replay(key, *before));  // nothing kept yet
  // The learned run found out = 9s (its inputs' hash covers them) and left them so.
  memo.ran(key, before, 5, footprint, true, "reads what it writes");

  std::memset(bytes_of(out), 0, 256);  // since then out changed, though `in` did not
  std::optional<ContentDigest> again = memo.digest_inputs(key);
  REQUIRE(again);
  CHECK_FALSE(*again == *before);  // out is among the sectors hashed: it differs
  CHECK_FALSE(memo.replay(key, *again));
  CHECK(bytes_of(out)[17] == 0);  // nothing written back
  gm.release(in), gm.release(out);
  memo.forget();
}

TEST_CASE("a replay writes back exactly the learned outputs, and a run outside the hashed sectors is not learned") {
  GlobalMemory& gm = GlobalMemory::instance();
  ContentMemo& memo = ContentMemo::instance();
  memo.forget();
  void* in = gm.allocate(256);
  void* out = gm.allocate(256);
  void* extra = gm.allocate(256);
  const int kernel = 0;
  const LaunchKey key = key_for(&kernel);
  const SectorRuns io = merge_runs(runs_of(in, 256), runs_of(out, 256));
  const LaunchFootprint footprint{io, runs_of(out, 256), false, true};

  std::memset(bytes_of(in), 3, 256), std::memset(bytes_of(out), 0, 256);
  memo.ran(key, std::nullopt, 0, footprint, true, "");
  const std::optional<ContentDigest> before = memo.digest_inputs(key);  // in = 3s, out = 0s
  REQUIRE(before);
  std::memset(bytes_of(out), 6, 256);  // the run's result
  memo.ran(key, before, 4, footprint, true, "");

  std::memset(bytes_of(out), 0, 256);  // the next call starts from the same bytes
  const std::optional<ContentDigest> now = memo.digest_inputs(key);
  REQUIRE(now);
  CHECK(*now == *before);
  const std::optional<Replay> hit = memo.replay(key, *now);
  REQUIRE(hit);
  CHECK(hit->record_index == 4);
  CHECK(bytes_of(out)[0] == 6);
  CHECK(bytes_of(out)[255] == 6);

  // A run that also touched `extra` read outside what was hashed: nothing is kept, and
  // the next hash covers what it did touch.
  const LaunchFootprint wider{merge_runs(io, runs_of(extra, 256)), runs_of(out, 256), false, true};
  memo.ran(key, now, 7, wider, true, "");
  const std::optional<ContentDigest> next = memo.digest_inputs(key);
  REQUIRE(next);
  CHECK_FALSE(memo.replay(key, *next));
  CHECK(memo.reach(key).touched.size() == wider.touched.size());

  // Not eligible (an error, a printf): forgotten.
  memo.ran(key, next, 8, wider, false, "");
  CHECK_FALSE(memo.knows(key));
  gm.release(in), gm.release(out), gm.release(extra);
  memo.forget();
}

TEST_CASE("a freed range goes to the next allocation of the same span, lowest first; others get fresh addresses") {
  // 37 pages: a span no other test frees, so the ranges found are these.
  constexpr std::size_t kPages = 37, kSpan = kPages * 4096;
  GlobalMemory& gm = GlobalMemory::instance();
  void* a = gm.allocate(kSpan - 100);
  void* b = gm.allocate(kSpan - 100);
  void* c = gm.allocate(100);
  gm.release(b), gm.release(a);
  CHECK_FALSE(sectors_live(runs_of(a, 4096)));
  void* first = gm.allocate(kSpan - 3000);  // the same span
  void* second = gm.allocate(kSpan);
  void* third = gm.allocate(kSpan + 4096);  // a larger span: fresh
  CHECK(first == a);
  CHECK(second == b);
  CHECK(third != a);
  CHECK(third != b);
  CHECK(sectors_live(runs_of(first, kSpan - 3000)));
  CHECK_FALSE(sectors_live(runs_of(first, kSpan)));  // past the new allocation's end
  // Allocation numbers follow the calls, not the addresses.
  const Allocation* fa = gm.find(reinterpret_cast<std::uintptr_t>(first), 1);
  const Allocation* sa = gm.find(reinterpret_cast<std::uintptr_t>(second), 1);
  REQUIRE(fa);
  REQUIRE(sa);
  CHECK(fa->id + 1 == sa->id);
  gm.release(first), gm.release(second), gm.release(third), gm.release(c);
}
