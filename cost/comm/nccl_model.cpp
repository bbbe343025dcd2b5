#include "cost/comm/nccl_model.hpp"

#include "cost/catalog/units.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace simt::cost {
namespace {

enum Protocol { LL, LL128, Simple };
constexpr std::array<const char*, 3> kProtocolNames = {"LL", "LL128", "Simple"};

// NCCL src/graph/tuning.cc (2.23 and later, as in 2.28): ring rows of baseLat and of
// hwLat for NVLink and the network (microseconds); llMaxBws for Hopper, one node and
// two nodes or more (GB/s).
constexpr std::array<double, 3> kBaseLatUs = {6.6, 14.0, 8.4};
constexpr std::array<double, 3> kNvlinkLatUs = {0.6, 1.9, 3.4};
constexpr std::array<double, 3> kNetLatUs = {2.7, 4.0, 14.0};
constexpr double kLlMaxBwOneNode = 141e9, kLlMaxBwTwoNodes = 45e9, kLlMaxBwMoreNodes = 35e9;

// The link every derived B is scaled from: the one measured on two H200s.
constexpr const char* kMeasuredLink = "NVLink4";

bool is_nvlink(const LinkSpec& l) { return l.name.rfind("NVLink", 0) == 0; }

int ring_steps(Collective op, int n) {
  switch (op) {
    case Collective::all_reduce: return 2 * (n - 1);
    case Collective::all_gather:
    case Collective::reduce_scatter:
    case Collective::all_to_all: return n - 1;
    case Collective::broadcast:
    case Collective::reduce: return n;
  }
  throw std::logic_error("unhandled collective");
}

double ll_max_bw(int nodes) { return nodes == 1 ? kLlMaxBwOneNode : nodes == 2 ? kLlMaxBwTwoNodes : kLlMaxBwMoreNodes; }

}  // namespace

double nccl_busbw(const LinkSpec& link, bool* calibrated) {
  if (auto it = link.fields.find("nccl_busbw_gbs"); it != link.fields.end()) {
    if (calibrated) *calibrated = true;
    return it->second.value * 1e9;
  }
  if (calibrated) *calibrated = false;
  const LinkSpec& measured = Catalog::builtin().link(kMeasuredLink);
  auto it = measured.fields.find("nccl_busbw_gbs");
  const double ratio = it == measured.fields.end() ? 1.0 : it->second.value * 1e9 / measured.bandwidth;
  return link.bandwidth * ratio;
}

double nccl_call_s(const LinkSpec& intra) {
  for (const LinkSpec* l : {&intra, &Catalog::builtin().link(kMeasuredLink)})
    if (auto it = l->fields.find("nccl_call_us"); it != l->fields.end()) return it->second.value * 1e-6;
  return 0;
}

PeerCopyTime peer_copy_time(double bytes, const LinkSpec& link) {
  PeerCopyTime out;
  const auto bw = link.fields.find("peer_copy_gbs"), lat = link.fields.find("peer_copy_us");
  out.calibrated = bw != link.fields.end() && lat != link.fields.end();
  double bandwidth = 0, latency = 0;
  if (out.calibrated) {
    bandwidth = bw->second.value * 1e9;
    latency = lat->second.value * 1e-6;
  } else {
    const LinkSpec& measured = Catalog::builtin().link(kMeasuredLink);
    auto mbw = measured.fields.find("peer_copy_gbs");
    bandwidth = link.bandwidth * (mbw == measured.fields.end() ? 1.0 : mbw->second.value * 1e9 / measured.bandwidth);
    latency = link.latency_s;
  }
  out.seconds = latency + bytes / bandwidth;
  out.sentence = fmt::format("{} over {} at {}/s + {} latency{}", format_bytes(bytes), link.name,
                             format_rate(bandwidth, "B"), format_seconds(latency), out.calibrated ? "" : " (uncalibrated link)");
  return out;
}

NcclTime nccl_time(Collective op, double bytes, const NcclRing& ring) {
  const int n = ring.ranks, nodes = ring.nodes;
  if (n < 1 || nodes < 1 || n % nodes != 0)
    throw std::invalid_argument(fmt::format("{} ranks do not split evenly over {} nodes", n, nodes));
  if (!(bytes >= 0)) throw std::invalid_argument("a collective of a negative size");
  if (!ring.intra || (nodes > 1 && !ring.inter)) throw std::invalid_argument("a ring needs its links");
  NcclTime out;
  if (n == 1) {  // NCCL copies sendbuff to recvbuff on the device (when they differ)
    out.protocol = "Simple";
    out.calibrated = true;
    out.sentence = "one rank: a local copy";
    return out;
  }
  bool intra_cal = false, inter_cal = true;
  double busbw = nccl_busbw(*ring.intra, &intra_cal);
  if (nodes > 1) busbw = std::min(busbw, nccl_busbw(*ring.inter, &inter_cal));
  out.calibrated = intra_cal && inter_cal;
  const int steps = ring_steps(op, n);
  const int inter_steps = nodes == 1 ? 0 : op == Collective::all_reduce ? 2 * (nodes - 1) : nodes - 1;
  const bool one_step = op == Collective::broadcast || op == Collective::reduce;  // pipelined chain
  const double ratio = double(n) / steps;
  for (int p : {LL, LL128, Simple}) {
    const double intra_lat = (is_nvlink(*ring.intra) ? kNvlinkLatUs[p] : ring.intra->latency_s * 1e6);
    const double lat_us = kBaseLatUs[p] + (one_step ? (nodes > 1 ? kNetLatUs[p] : intra_lat)
                                                    : (steps - inter_steps) * intra_lat + inter_steps * kNetLatUs[p]);
    const double bus = p == Simple ? busbw : p == LL128 ? 0.92 * busbw : std::min(ll_max_bw(nodes), 0.5 * busbw);
    const double t = lat_us * 1e-6 + bytes / (bus * ratio);
    if (out.protocol.empty() || t < out.seconds) {
      out.seconds = t;
      out.protocol = kProtocolNames[p];
      out.latency_s = lat_us * 1e-6;
      out.algbw = bus * ratio;
    }
  }
  out.busbw = out.algbw * bus_factor(op, n);
  out.sentence = fmt::format("{} of {} over {} ranks{}: NCCL's ring, {} protocol, {} + S at {}/s (algbw){}",
                             to_string(op), format_bytes(bytes), n, nodes > 1 ? fmt::format(" on {} nodes", nodes) : "",
                             out.protocol, format_seconds(out.latency_s), format_rate(out.algbw, "B"),
                             out.calibrated ? "" : " (uncalibrated link)");
  return out;
}

}  // namespace simt::cost
