// The device and link catalog: published specs of GPUs and interconnects, each
// number with its source. Data lives in cost/catalog/devices.json (instructors may add
// entries); this header is the typed view of it.
//
// Units here are SI base units (bytes, bytes/s, FLOP/s, seconds, watts), converted
// once at load time from the datasheet units the JSON file uses. A value of 0 means
// "not published" (the file says null); code that needs such a value must say so.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simt::cost {

// One published number and where it comes from.
struct Sourced {
  double value = 0;    // SI units (see above); 0 when not published
  std::string source;  // datasheet / spec page: "title <url>"
  std::string note;    // e.g. "dense", "sparse", "FP32 accumulate", "boost clock"
};

struct DeviceSpec {
  std::string name;       // catalog key, e.g. "H100-SXM"
  std::string full_name;  // e.g. "NVIDIA H100 SXM5 80GB"
  std::string arch;       // e.g. "Hopper"
  std::string compute_capability;  // e.g. "9.0"
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
  double l2_bandwidth = 0;   // bytes/s; 0 = not published (NVIDIA gives none)
  double hbm_bytes = 0;      // device memory capacity (HBM or GDDR)
  double hbm_bandwidth = 0;  // bytes/s
  // The device's link to the host (a name in "links", e.g. "PCIe5-x16"): what
  // cudaMemcpy between host and device moves over. Empty: not given.
  std::string host_link;
  std::string host_link_source;
  // Peak FLOP/s (dense) by precision key: "fp64", "fp32", "tf32", "fp16", "bf16",
  // "fp8", "int8" (int8 in OP/s). fp64/fp32 are CUDA-core rates; the others are
  // Tensor Core rates, dense, with the accumulate precision in the note. A key is
  // absent when the device has no such unit (e.g. no bf16 on V100).
  std::map<std::string, Sourced> peak;
  double tdp_watts = 0;
  double price_per_hour_usd = 0;  // optional in the file; 0 = not given
  // Measured on real hardware, where someone has (optional): what a roofline bound
  // misses. 0 = not calibrated.
  struct Calibration {
    double min_kernel_s = 0;     // the shortest kernel this device runs (launch and one wave)
    double dram_efficiency = 0;  // best achieved DRAM bandwidth / datasheet bandwidth
    std::string source;
  } calibration;
  // The optional "kernel_model" object: rates and latencies of the kernel time
  // model (cost/kernel/kernel_rates.hpp), keyed as in the file, values in the file's
  // units (the key's suffix says which: _us, _clk, _bytes_per_clk, ...).
  std::map<std::string, Sourced> kernel_model;
  // Every field as read from the file, keyed by its JSON name (e.g. "sm_count",
  // "memory_bandwidth_gbs"): the value in the file's units, source and note.
  std::map<std::string, Sourced> fields;

  // Peak for a precision key; throws naming the device and the keys it has.
  const Sourced& peak_for(const std::string& precision) const;
};

struct LinkSpec {
  std::string name;       // e.g. "NVLink4"
  std::string full_name;  // e.g. "NVLink 4.0 (H100/H200 SXM: 18 links x 25 GB/s)"
  double bandwidth = 0;   // bytes/s per GPU per direction (the beta of alpha-beta)
  double latency_s = 0;   // per communication step (alpha)
  std::string source;     // of the bandwidth
  std::map<std::string, Sourced> fields;  // as for DeviceSpec
};

class Catalog {
 public:
  // Loads from a JSON file; throws std::runtime_error naming file, entry, field.
  static Catalog load(const std::string& path);
  // Parses JSON text; `origin` names the file in error messages.
  static Catalog parse(const std::string& text, const std::string& origin);
  // cost/catalog/devices.json of the source tree, or $SIMT_CATALOG when set.
  static const Catalog& builtin();
  static std::string builtin_path();

  // Exact name, else a unique case/punctuation-insensitive match ("h100 sxm");
  // otherwise throws "unknown device 'H10'; did you mean 'H100-SXM'?".
  const DeviceSpec& device(const std::string& name) const;
  const LinkSpec& link(const std::string& name) const;
  // A GPU or a TPU chip (the "tpus" array: no SIMT fields), for the LLM cost
  // model; the same name matching and near-miss message as device().
  const DeviceSpec& accelerator(const std::string& name) const;
  const std::vector<DeviceSpec>& tpus() const { return tpus_; }
  const std::vector<DeviceSpec>& devices() const { return devices_; }
  const std::vector<LinkSpec>& links() const { return links_; }
  const std::string& origin() const { return origin_; }

 private:
  std::string origin_;
  std::vector<DeviceSpec> devices_;
  std::vector<LinkSpec> links_;
  std::vector<DeviceSpec> tpus_;
};

}  // namespace simt::cost
