// The content memo's hash rate (docs/perf-log.md, "Replayed launches"): 1 GiB of device
// memory through digest_sectors. Build: g++ -std=c++20 -O2 -I. hash_rate.cpp -Lbuild/sim -lsimt_sim
//   -Wl,-rpath,build/sim -lfmt -o /tmp/hash_rate  (from the repository root)
#include "sim/exec/content_memo.hpp"
#include "sim/memory/global_memory.hpp"
#include <chrono>
#include <cstdio>
#include <cstring>
using namespace simt;
int main() {
  const std::size_t n = std::size_t(1) << 30;
  GlobalMemory& gm = GlobalMemory::instance();
  void* p = gm.allocate(n);
  std::memset(gm.host_address(p), 5, n);
  SectorRuns runs{sectors_of_bytes(reinterpret_cast<std::uintptr_t>(p), n)};
  for (int i = 0; i < 3; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    ContentDigest d = digest_sectors(runs);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("1 GiB hashed in %.3f s: %.1f GB/s (%llx)\n", s, n / s / 1e9, (unsigned long long)d.low);
  }
}
