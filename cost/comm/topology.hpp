// Two-tier clusters: GPUs inside a server share NVLink (or PCIe), servers are
// joined by a network link, one NIC per GPU. A parallel group that spans servers
// communicates at the slower tier's pace for the part that crosses it.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"

#include <string>

namespace simt::cost {

struct Topology {
  const LinkSpec* intra = nullptr;  // null: default_link(device)
  const LinkSpec* inter = nullptr;  // null: default_network_link(device)
  int gpus_per_node = 8;            // DGX/HGX servers hold 8
};

struct GroupComm {
  double time_s = 0;
  std::string how;  // "ring on NVLink4" or "RS NVLink4 + AR IB-NDR + AG NVLink4"
};

// An all-reduce of S bytes over `gpus` consecutive GPUs. Inside one server: the
// faster of ring and tree on the intra link. Across servers (gpus a multiple of
// gpus_per_node): NCCL's hierarchical scheme, reduce-scatter inside each server,
// all-reduce of S / gpus_per_node across servers, all-gather inside. Throws for
// a group that splits servers unevenly.
GroupComm group_all_reduce(double bytes, int gpus, const DeviceSpec& device, const Topology& topo);

// Pipeline-stage boundaries of one replica (stages of tp consecutive GPUs) that
// fall on a server boundary and so go over the network.
int node_crossing_boundaries(int tp, int pp, int gpus_per_node);

// The pp - 1 stage-boundary sends of one step, each alpha + S/B on its tier.
double pp_sends_s(double bytes, int tp, int pp, const DeviceSpec& device, const Topology& topo);

// The link a device's GPUs use inside one server: NVLink of its generation for
// SXM parts, PCIe otherwise (datasheets: V100 SXM2 NVLink2, A100 NVLink3,
// H100/H200 NVLink4, B200 NVLink5).
const LinkSpec& default_link(const DeviceSpec& device);

// An all-reduce as NCCL would run it: the faster of ring and tree (cost/comm/comm.hpp).
CommResult fastest_all_reduce(double bytes, int gpus, const LinkSpec& link);

// The network of the device's reference server: DGX H100/H200/B200 give each GPU
// a 400 Gb/s ConnectX-7 (IB-NDR), DGX A100 a 200 Gb/s ConnectX-6 (IB-HDR)
// (NVIDIA DGX user guides); other parts get IB-HDR.
const LinkSpec& default_network_link(const DeviceSpec& device);

}  // namespace simt::cost
