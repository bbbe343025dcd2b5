// NCCL's collectives as NCCL itself prices them, calibrated on two H200s.
//
// For each protocol p (LL, LL128, Simple) NCCL's tuning model (src/graph/tuning.cc,
// ncclTopoTuneModel) predicts time = latency_p + S / algbw_p, and NCCL runs the
// protocol with the least time:
//   latency_p = baseLat[ring][p] + steps x hwLat[tier][ring][p]   (steps: 2(n-1) for
//               all-reduce, n-1 for all-gather/reduce-scatter; broadcast/reduce one step)
//   busbw_p   = B (Simple), 0.92 B (LL128: 120 of 128 bytes are data), min(llMaxBw, B/2) (LL)
//   algbw_p   = busbw_p x n / steps (ring)
// simtlab takes NCCL's constants as they are (cited below) and fits two numbers on
// the measured 2xH200 all-reduce sweep (docs/validation/nccl-h200x2.md): B, the bus
// bandwidth NCCL's Simple protocol achieves over the link, and the host's cost of
// one call (one group of calls), which bounds back-to-back small collectives. Links
// without a measurement get B from the measured link's ratio of B to its datasheet
// bandwidth and the measured call cost, and say they are uncalibrated; a ring that
// crosses nodes runs at the slower tier's B with NCCL's network step latency.
#pragma once
#include "cost/catalog/catalog.hpp"
#include "cost/comm/comm.hpp"

#include <string>

namespace simt::cost {

struct NcclRing {
  int ranks = 2;
  int nodes = 1;
  const LinkSpec* intra = nullptr;  // the link inside a node
  const LinkSpec* inter = nullptr;  // between nodes (required when nodes > 1)
};

struct NcclTime {
  double seconds = 0;       // on the device: latency + bytes / algbw of the protocol chosen
  std::string protocol;     // "LL", "LL128" or "Simple"
  double latency_s = 0;
  double algbw = 0;         // bytes/s of S
  double busbw = 0;         // nccl-tests' bus bandwidth of the call
  bool calibrated = false;  // every link it uses has a measured B
  std::string sentence;     // the account, for traces and --explain
};

// Throws std::invalid_argument for broadcast/reduce/all-to-all ... with ranks < 1,
// bytes < 0, or nodes that do not divide the ranks. One rank: a local copy (no link).
NcclTime nccl_time(Collective op, double bytes, const NcclRing& ring);

// What the host spends issuing one NCCL call or group (the measured link's value).
double nccl_call_s(const LinkSpec& intra);

// B for a link: measured, or derived (see above).
double nccl_busbw(const LinkSpec& link, bool* calibrated = nullptr);

// A copy from one GPU's memory to another's over `link` (cudaMemcpyPeer, ncclSend):
// latency + bytes / bandwidth, measured on the link where it was, else the link's
// latency and its datasheet bandwidth times the measured link's efficiency.
struct PeerCopyTime {
  double seconds = 0;
  bool calibrated = false;
  std::string sentence;
};
PeerCopyTime peer_copy_time(double bytes, const LinkSpec& link);

}  // namespace simt::cost
