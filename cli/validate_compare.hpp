// `simt validate`'s verdicts: device memory after each launch (digests written by
// both sides, sim/exec/launch_digest.hpp) and counters (the simulator's JSON
// against Nsight Compute's CSV), launch by launch; where digests differ, the bytes of
// the differing allocations (dumps, sim/exec/launch_dump.hpp) element by element,
// as a distance in ulps.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace simt::cli {

struct AllocationDigest {
  std::uint64_t id = 0;
  std::uint64_t bytes = 0;
  std::string hash;
};

struct LaunchDigest {
  int error = 0;
  std::string kernel;
  std::vector<AllocationDigest> allocations;
};

// Throws std::runtime_error naming the file and line of anything malformed.
std::vector<LaunchDigest> parse_digests(const std::string& text, const std::string& file);

// One row of Nsight Compute's CSV: a launch's metrics by name.
using NcuLaunch = std::map<std::string, double>;
std::vector<NcuLaunch> parse_ncu_csv(const std::string& text);

// How the bytes of an allocation are read when its digests differ (--elem).
enum class ElementKind { F32, F64, F16, BF16, Bytes };
std::optional<ElementKind> parse_element_kind(std::string_view name);  // "f32", "f64", "f16", "bf16", "bytes"
std::size_t element_bytes(ElementKind k);
std::string_view element_plural(ElementKind k);  // "floats", "doubles", "halves", "bf16s", "bytes"

// The distance in ulps between two values given by their bits: the difference of their
// positions in the ordered sequence of the format's values (sign-magnitude mapped onto
// the integers, +0 and -0 both at 0), so adjacent values are 1 ulp apart, +0 and -0 are
// 0, and the smallest denormals either side of zero are 2. Two NaNs of any payload are 0
// apart; a NaN and a number (infinity included) are kInfiniteUlp apart. For Bytes, any
// difference is kInfiniteUlp (there is no ulp bound on raw bytes).
constexpr std::uint64_t kInfiniteUlp = std::numeric_limits<std::uint64_t>::max();
std::uint64_t ulp_distance(ElementKind k, std::uint64_t a_bits, std::uint64_t b_bits);
std::uint64_t ulp_distance(float a, float b);
std::uint64_t ulp_distance(double a, double b);
std::string format_ulp(std::uint64_t ulp);  // "3 ulp", "inf ulp"

// One allocation's bytes on both sides, element by element.
struct ElementComparison {
  std::uint64_t elements = 0;  // whole elements compared (a tail shorter than one is compared as bytes)
  std::uint64_t differing = 0;  // elements whose bits differ (a 0-ulp pair such as +0/-0 included)
  std::uint64_t worst_ulp = 0;  // the largest distance between two whole elements (at `worst`)
  std::uint64_t max_ulp = 0;    // worst_ulp, or kInfiniteUlp when the tail differs
  std::uint64_t first = 0, worst = 0;  // element indices
  std::string first_sim, first_gpu, worst_sim, worst_gpu;  // the values there, shortest round-trip text
  bool tail_differs = false;
};
ElementComparison compare_elements(std::span<const unsigned char> sim, std::span<const unsigned char> gpu,
                                   ElementKind kind);
// "12 of 4096 floats differ, max 2 ulp at [517] (0.731 vs 0.7310001), first at [3] (1 vs 1.0000001)"
std::string describe(const ElementComparison& c, ElementKind kind);

// What the memory of one launch came to.
enum class MemoryVerdict {
  Same,        // every live allocation bit-identical
  WithinUlp,   // differs, but every differing element is within --max-ulp
  Different,   // differs beyond the bound, in a way no ulp measures (sizes, counts, errors), or unmeasured
};

struct LaunchVerdict {
  std::string kernel;
  bool memory_same = true;
  std::string memory_detail;  // "3 allocations equal" or what differs
  // Allocations whose digests alone differ (same ids and sizes on both sides, and
  // memory_same false): what compare_dumps reads.
  std::vector<std::uint64_t> differing_allocations;
  // The largest ulp distance over the launch's differing allocations, once measured
  // from both sides' dumps; nullopt when memory is the same or was not measured.
  std::optional<std::uint64_t> max_ulp;
  bool within_bound = false;  // memory differs, but only by max_ulp <= --max-ulp
  int counters_compared = 0, counters_equal = 0;
  std::string counter_detail;  // the first differing metric, sim vs GPU
  MemoryVerdict memory() const {
    return memory_same ? MemoryVerdict::Same : within_bound ? MemoryVerdict::WithinUlp : MemoryVerdict::Different;
  }
  bool counters_same() const { return counters_equal == counters_compared; }
  bool same() const { return memory_same && counters_same(); }
  // Passes `simt validate`: memory identical or within the ulp bound, counters equal.
  bool accepted() const { return memory() != MemoryVerdict::Different && counters_same(); }
};

// Memory: every launch's live allocations equal in size and content.
std::vector<LaunchVerdict> compare_memory(const std::vector<LaunchDigest>& sim, const std::vector<LaunchDigest>& gpu);

// Where each side's dumps are, how to read them, and the bound (--max-ulp; nullopt:
// none given, every differing bit fails as before).
struct DumpComparison {
  std::filesystem::path sim_dir, gpu_dir;  // empty: that side wrote none
  ElementKind kind = ElementKind::F32;
  std::optional<std::uint64_t> max_ulp;
};
// Reads the dumps of each verdict's differing_allocations and rewrites its memory
// detail with the element comparison; sets max_ulp and within_bound. An allocation
// without a dump on either side (not written, over the cap, or not matching that
// side's digest) leaves the launch Different, saying which. An allocation's bytes after
// launch N are in the newest dump launch-M-alloc-ID.bin with M <= N (the writers dump
// an allocation only when its digest changed), checked against the digest after N.
void compare_dumps(std::vector<LaunchVerdict>& verdicts, const std::vector<LaunchDigest>& sim,
                   const std::vector<LaunchDigest>& gpu, const DumpComparison& how);
// Adds the counters of `metrics` (the simulator's exact ones) to each verdict.
void compare_counters(std::vector<LaunchVerdict>& verdicts, const nlohmann::json& sim_launches,
                      const std::vector<NcuLaunch>& ncu, const std::vector<std::string>& metrics);

}  // namespace simt::cli
