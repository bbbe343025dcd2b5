// The device and link catalog: published specs of GPUs and interconnects, each
// number with its source. Data lives in cost/devices.json (instructors may add
// entries); this header is the typed view of it.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simt::cost {

// One published number and where it comes from.
struct Sourced {
  double value = 0;
  std::string source;  // datasheet / spec page (URL or document name)
  std::string note;    // e.g. "dense", "sparse", "FP32 accumulate", "boost clock"
};

struct DeviceSpec {
  std::string name;       // catalog key, e.g. "H100-SXM"
  std::string full_name;  // e.g. "NVIDIA H100 SXM5 80GB"
  std::string arch;       // e.g. "Hopper"
  int sm_count = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int registers_per_sm = 65536;
  double boost_clock_ghz = 0;
  double shared_per_sm_bytes = 0;
  double shared_per_block_bytes = 0;        // default (static) limit, 48 KiB
  double shared_per_block_optin_bytes = 0;  // with cudaFuncSetAttribute
  double l2_bytes = 0;
  double hbm_bytes = 0;
  double hbm_bandwidth = 0;  // bytes/s
  // Peak FLOP/s (dense) by precision key: "fp64", "fp32", "tf32", "fp16", "bf16",
  // "fp8", "int8" (int8 in OP/s). Tensor-core figures are dense unless the note says.
  std::map<std::string, Sourced> peak;
  double tdp_watts = 0;
  double price_per_hour_usd = 0;  // a typical cloud on-demand price, for budgets
  std::map<std::string, std::string> sources;  // field name -> source
};

struct LinkSpec {
  std::string name;          // e.g. "NVLink4"
  double bandwidth = 0;      // bytes/s per GPU per direction
  double latency_s = 0;      // alpha
  std::string source;
};

class Catalog {
 public:
  // Loads from a JSON file; throws std::runtime_error naming file, entry, field.
  static Catalog load(const std::string& path);
  // cost/devices.json of the source tree, or $SIMT_CATALOG when set.
  static const Catalog& builtin();

  const DeviceSpec& device(const std::string& name) const;  // throws with near-miss
  const LinkSpec& link(const std::string& name) const;      // throws with near-miss
  const std::vector<DeviceSpec>& devices() const { return devices_; }
  const std::vector<LinkSpec>& links() const { return links_; }

 private:
  std::vector<DeviceSpec> devices_;
  std::vector<LinkSpec> links_;
};

}  // namespace simt::cost
