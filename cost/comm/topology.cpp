#include "cost/comm/topology.hpp"

#include <fmt/core.h>

#include <stdexcept>

namespace simt::cost {

GroupComm group_all_reduce(double bytes, int gpus, const DeviceSpec& device, const Topology& topo) {
  const LinkSpec& intra = topo.intra ? *topo.intra : default_link(device);
  const int g = topo.gpus_per_node;
  if (g < 1) throw std::invalid_argument(fmt::format("GPUs per node must be >= 1, got {}", g));
  if (gpus <= g) {
    const CommResult r = fastest_all_reduce(bytes, gpus, intra);
    return {r.time_s, fmt::format("{} on {}", to_string(r.algo), intra.name)};
  }
  if (gpus % g != 0)
    throw std::invalid_argument(fmt::format(
        "a group of {} GPUs spans servers of {} unevenly: make it a multiple of --gpus-per-node", gpus, g));
  const LinkSpec& inter = topo.inter ? *topo.inter : default_network_link(device);
  double t = 0;
  if (g > 1) {
    t += collective_time(Collective::reduce_scatter, bytes, g, intra).time_s;
    t += collective_time(Collective::all_gather, bytes, g, intra).time_s;
  }
  t += fastest_all_reduce(bytes / g, gpus / g, inter).time_s;
  return {t, fmt::format("reduce-scatter on {}, all-reduce of S/{} over {} servers on {}, all-gather on {}", intra.name,
                         g, gpus / g, inter.name, intra.name)};
}

int node_crossing_boundaries(int tp, int pp, int gpus_per_node) {
  int crossing = 0;
  for (int k = 1; k < pp; ++k)  // boundary between stage k-1 and k starts at GPU k*tp
    if ((int64_t(k) * tp) % gpus_per_node == 0 || tp >= gpus_per_node) ++crossing;
  return crossing;
}

// Stage boundaries on a server boundary use the network, the others the intra link.
double pp_sends_s(double bytes, int tp, int pp, const DeviceSpec& device, const Topology& topo) {
  const int crossing = node_crossing_boundaries(tp, pp, topo.gpus_per_node);
  const LinkSpec& intra = topo.intra ? *topo.intra : default_link(device);
  double t = (pp - 1 - crossing) * (intra.latency_s + bytes / intra.bandwidth);
  if (crossing > 0) {
    const LinkSpec& inter = topo.inter ? *topo.inter : default_network_link(device);
    t += crossing * (inter.latency_s + bytes / inter.bandwidth);
  }
  return t;
}

CommResult fastest_all_reduce(double bytes, int gpus, const LinkSpec& link) {
  const CommResult ring = collective_time(Collective::all_reduce, bytes, gpus, link, CommAlgo::ring);
  const CommResult tree = collective_time(Collective::all_reduce, bytes, gpus, link, CommAlgo::tree);
  return tree.time_s < ring.time_s ? tree : ring;
}

const LinkSpec& default_link(const DeviceSpec& device) {
  const auto& cat = Catalog::builtin();
  if (device.arch == "TPU")
    throw std::invalid_argument(device.name + ": the catalog has no ICI link model (no published per-hop latency); "
                                "give --link to price tensor or pipeline parallelism");
  const bool pcie_card = device.name.find("PCIe") != std::string::npos;
  if (device.arch == "Hopper") return cat.link(pcie_card ? "PCIe5-x16" : "NVLink4");
  if (device.arch == "Blackwell") return cat.link("NVLink5");
  if (device.arch == "Ampere" && device.name.rfind("A100", 0) == 0) return cat.link("NVLink3");
  if (device.arch == "Volta") return cat.link("NVLink2");
  return cat.link("PCIe4-x16");
}

const LinkSpec& default_network_link(const DeviceSpec& device) {
  if (device.arch == "TPU")
    throw std::invalid_argument(device.name + ": TPU pods have no network-tier model here: give --inter-link");
  const auto& cat = Catalog::builtin();
  if (device.arch == "Hopper" || device.arch == "Blackwell") return cat.link("IB-NDR");
  return cat.link("IB-HDR");
}

}  // namespace simt::cost
