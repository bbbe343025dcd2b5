#include "sim/exec/launch_digest.hpp"

#include "sim/memory/global_memory.hpp"
#include "sim/options/runtime_options.hpp"
#include "sim/exec/launch_dump.hpp"

#include <cstdint>
#include <cstdio>

namespace simt {

void write_launch_digest(const LaunchRecord& r) {
  const std::string& path = runtime_options().validate_digests;
  static validate_dump::LaunchDump dump(runtime_options());  // validate_dump_dir
  if (path.empty() && !dump.enabled()) return;
  static unsigned launch = 0;
  ++launch;
  std::FILE* f = path.empty() ? nullptr : std::fopen(path.c_str(), launch == 1 ? "w" : "a");
  if (f) std::fprintf(f, "launch %u error %d kernel %s\n", launch, r.error, r.kernel.c_str());
  // Read on the host, outside any simulated thread: nothing here is counted.
  for (const Allocation& a : GlobalMemory::instance().live_allocations()) {
    if (a.host) continue;  // page-locked host memory: not one of the device allocations a GPU run hashes
    const auto* bytes = reinterpret_cast<const unsigned char*>(GlobalMemory::instance().host_address(a.base));
    const std::uint64_t hash = validate_dump::fnv1a(bytes, a.size);
    if (f)
      std::fprintf(f, "alloc %llu %zu %016llx\n", static_cast<unsigned long long>(a.id), a.size,
                   static_cast<unsigned long long>(hash));
    dump.allocation(launch, a.id, bytes, a.size, hash);
  }
  if (f) std::fclose(f);
}

}  // namespace simt
