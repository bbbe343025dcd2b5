#include "timing/clock_model.hpp"

#include "timing/time_model_io.hpp"

#include "cost/catalog/catalog.hpp"
#include "cost/catalog/units.hpp"
#include "cost/kernel/kernel_rates.hpp"
#include "cost/comm/nccl_model.hpp"
#include "cost/comm/topology.hpp"
#include "cost/kernel/kernel_time.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/exec/devices.hpp"
#include "sim/options/runtime_options.hpp"

#include <fmt/format.h>

#include <set>
#include <stdexcept>

namespace simt::timing {

namespace {

class CatalogTimeModel final : public TimeModel {
 public:
  explicit CatalogTimeModel(const cost::DeviceSpec& d) : device_(d), rates_(cost::kernel_rates(d)) {
    const cost::Catalog& cat = cost::Catalog::builtin();
    if (!d.host_link.empty()) link_ = &cat.link(d.host_link);
    const Options& o = runtime_options();
    intra_ = o.link.empty() ? &cost::default_link(d) : &cat.link(o.link);
    inter_ = o.inter_link.empty() ? &cost::default_network_link(d) : &cat.link(o.inter_link);
  }

  WorkTime kernel(const LaunchRecord& r) const override {
    if (r.error == cudaErrorInvalidConfiguration || volume(r.grid) == 0) return {0, "not launched", ""};
    try {
      cost::KernelTime t = cost::kernel_time(device_, time_model_counters(r));
      return {t.predicted_s, t.bound, t.sentence, kernel_time_json(t)};
    } catch (const std::invalid_argument& e) {  // counters the model refuses: no time, and say why
      return {0, "unpriced", e.what(), {{"unpriced", e.what()}}};
    }
  }

  WorkTime transfer(WorkKind kind, std::size_t bytes, bool pageable) const override {
    const double b = static_cast<double>(bytes);
    switch (kind) {
      case WorkKind::CopyHostToDevice:
      case WorkKind::CopyDeviceToHost: return over_host_link(b, kind == WorkKind::CopyHostToDevice, pageable);
      case WorkKind::CopyDeviceToDevice: return in_dram(2 * b, "read and write");
      case WorkKind::Memset: return in_dram(b, "write");
      case WorkKind::CopyHostToHost:
      case WorkKind::Kernel:
      case WorkKind::CopyPeer:
      case WorkKind::Collective: break;
    }
    return {0, "host", ""};
  }

  std::string device() const override { return device_.name; }

  WorkTime peer_copy(std::size_t bytes, int from, int to) const override {
    const cost::LinkSpec& link = node_of(from) == node_of(to) ? *intra_ : *inter_;
    const cost::PeerCopyTime t = cost::peer_copy_time(static_cast<double>(bytes), link);
    return {t.seconds, link.name, t.sentence};
  }

  WorkTime collective(const std::string& op, std::size_t bytes, const std::vector<int>& devices) const override {
    std::set<int> nodes;
    for (int d : devices) nodes.insert(node_of(d));
    const int n = static_cast<int>(devices.size()), m = static_cast<int>(nodes.size());
    cost::NcclRing ring{n, n % m == 0 ? m : 1, intra_, inter_};
    const cost::NcclTime t = cost::nccl_time(cost::parse_collective(op), static_cast<double>(bytes), ring);
    return {t.seconds, t.protocol, t.sentence,
            {{"protocol", t.protocol}, {"algbw_gbs", t.algbw / 1e9}, {"busbw_gbs", t.busbw / 1e9}, {"calibrated", t.calibrated}}};
  }

  double collective_issue_s() const override { return cost::nccl_call_s(*intra_); }

  // The driver's cost on the host, measured on the H200's machine (launch_issue_us,
  // copy_issue_us): a device without its own figure takes the H200's. Device-to-device
  // copies are issued as kernels (they cost a launch on the H200).
  double issue_s(WorkKind kind) const override {
    switch (kind) {
      case WorkKind::Kernel:
      case WorkKind::CopyDeviceToDevice: return host_cost_us("launch_issue_us") * 1e-6;
      case WorkKind::CopyHostToDevice:
      case WorkKind::CopyDeviceToHost: return host_cost_us("copy_issue_us") * 1e-6;
      default: return 0;
    }
  }

 private:
  // The device's measured "kernel_model" value, or the fallback.
  double measured(const char* key, double fallback) const {
    auto it = device_.kernel_model.find(key);
    return it == device_.kernel_model.end() ? fallback : it->second.value;
  }

  double host_cost_us(const char* key) const {
    if (auto it = device_.kernel_model.find(key); it != device_.kernel_model.end()) return it->second.value;
    const cost::DeviceSpec& h200 = cost::Catalog::builtin().device("H200");
    auto it = h200.kernel_model.find(key);
    return it == h200.kernel_model.end() ? 0 : it->second.value;
  }

  // Latency + bytes / bandwidth: the link's datasheet rate times the efficiency
  // measured on the device (pinned memory), where someone has measured it.
  // Pageable host memory is staged by the driver through a pinned buffer: where
  // its rate per direction was measured on the device's host, that rate binds.
  WorkTime over_host_link(double bytes, bool to_device, bool pageable) const {
    if (!link_) return {0, "unpriced", fmt::format("{} has no host_link in the catalog", device_.name)};
    double bandwidth = link_->bandwidth * measured("host_copy_efficiency", 1.0);
    if (pageable) bandwidth = measured(to_device ? "pageable_h2d_gbs" : "pageable_d2h_gbs", bandwidth / 1e9) * 1e9;
    const double latency = measured("host_copy_latency_us", link_->latency_s * 1e6) * 1e-6;
    const double s = latency + bytes / bandwidth;
    return {s, link_->name,
            fmt::format("{} B ({} host memory) over {} at {}/s + {} latency = {}", bytes, pageable ? "pageable" : "pinned",
                        link_->name, cost::format_rate(bandwidth, "B"), cost::format_seconds(latency),
                        cost::format_seconds(s))};
  }

  WorkTime in_dram(double bytes, const char* what) const {
    const double s = rates_.launch_overhead_s.value + bytes / rates_.dram_bytes.value;
    return {s, "dram",
            fmt::format("{} {} B at {}/s (achievable DRAM) + {} launch = {}", what, bytes,
                        cost::format_rate(rates_.dram_bytes.value, "B"), cost::format_seconds(rates_.launch_overhead_s.value),
                        cost::format_seconds(s))};
  }

  const cost::DeviceSpec& device_;
  cost::KernelRates rates_;
  const cost::LinkSpec* link_ = nullptr;   // to the host
  const cost::LinkSpec* intra_ = nullptr;  // between GPUs of a node
  const cost::LinkSpec* inter_ = nullptr;  // between nodes
};

}  // namespace

std::unique_ptr<TimeModel> catalog_time_model(const std::string& device) {
  return std::make_unique<CatalogTimeModel>(cost::Catalog::builtin().device(device));
}

bool install_clock_model(const std::string& device) {
  try {
    DeviceClock::set_model(catalog_time_model(device));
    return true;
  } catch (const std::exception& e) {
    fmt::print(stderr, "simt: the simulated clock cannot price {}: {}; GPU times read 0\n", device, e.what());
    return false;
  }
}

}  // namespace simt::timing
