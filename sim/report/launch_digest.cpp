#include "sim/report/launch_digest.hpp"

#include "sim/memory/global_memory.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace simt {

namespace {

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

}  // namespace

void write_launch_digest(const LaunchRecord& r) {
  static const char* path = std::getenv("SIMT_VALIDATE_DIGESTS");
  if (!path || !*path) return;
  static unsigned launch = 0;
  std::FILE* f = std::fopen(path, launch == 0 ? "w" : "a");
  if (!f) return;
  std::fprintf(f, "launch %u error %d kernel %s\n", ++launch, r.error, r.kernel.c_str());
  // Read on the host, outside any simulated thread: nothing here is counted.
  for (const Allocation& a : GlobalMemory::instance().live_allocations())
    std::fprintf(f, "alloc %llu %zu %016llx\n", static_cast<unsigned long long>(a.id), a.size,
                 static_cast<unsigned long long>(fnv1a(reinterpret_cast<const unsigned char*>(GlobalMemory::instance().host_address(a.base)), a.size)));
  std::fclose(f);
}

}  // namespace simt
