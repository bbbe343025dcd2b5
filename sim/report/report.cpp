#include "sim/report/report.hpp"

#include "sim/count/metrics.hpp"
#include "sim/symbols/compiler_sites.hpp"
#include "sim/symbols/symbols.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace simt {

namespace {

std::string dim(const dim3& d) { return fmt::format("({},{},{})", d.x, d.y, d.z); }

// "±0.4%": one estimated standard error; "an unknown error" for a sample of one block.
std::string sample_error_text(double relative) {
  if (!(relative < 1e300)) return "an unknown error (one block counted)";
  return fmt::format("±{:.2g}% (one standard error, from the counted blocks' spread)", 100 * relative);
}

struct LineStats {
  SourceLocation loc;
  Counters c;
};

std::vector<LineStats> per_line(const LaunchRecord& r) {
  std::vector<Site> sites;
  for (auto& [site, c] : r.per_site) sites.push_back(site);
  auto locs = resolve_sites(sites);
  std::map<std::pair<std::string, int>, LineStats> lines;
  for (std::size_t i = 0; i < sites.size(); ++i) {
    LineStats& l = lines[{locs[i].file, locs[i].line}];
    l.loc = locs[i];
    l.c += r.per_site.at(sites[i]);
  }
  std::vector<LineStats> out;
  for (auto& [k, v] : lines) out.push_back(v);
  return out;
}

// SIMT_OPTIONS=thread_accesses: one object per (allocation, op) the launch touched,
// its worst thread named by block and thread index and by the line of its last access.
nlohmann::json thread_accesses_json(const LaunchRecord& r, const ThreadAccessTotals& tally) {
  static const char* const ops[] = {"read", "write", "atomic", "atomic"};
  std::vector<Site> sites;
  for (const ThreadAccessTotal& t : tally) sites.push_back(t.worst_site);
  const auto locs = resolve_sites(sites);
  const dim3 g = r.grid, bd = r.block;
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < tally.size(); ++i) {
    const ThreadAccessTotal& t = tally[i];
    const std::uint64_t b = t.worst_block, th = t.worst_thread;
    const std::uint64_t gxy = std::uint64_t(g.x) * g.y, bxy = std::uint64_t(bd.x) * bd.y;
    out.push_back({{"allocation", t.base},
                   {"bytes", t.bytes},
                   {"op", ops[static_cast<int>(t.op)]},
                   {"total", t.total},
                   {"max_per_thread", t.max_per_thread},
                   {"max_per_block", t.max_per_block},
                   {"worst_thread",
                    {{"block", {b % g.x, b / g.x % g.y, b / gxy}}, {"thread", {th % bd.x, th / bd.x % bd.y, th / bxy}}}},
                   {"file", locs[i].short_file()},
                   {"line", locs[i].line}});
  }
  return out;
}

// SIMT_OPTIONS=trace_warps=N: the sampled rows, by file and line, then in the order
// they ran (block, warp, row); each lane's address, null for an inactive lane.
nlohmann::json access_trace_json(const LaunchRecord& r, const AccessTrace& trace) {
  static const char* const ops[] = {"ld", "st", "atom", "red"};
  std::vector<Site> sites;
  for (const TracedAccess& t : trace) sites.push_back(t.row.site);
  const auto locs = resolve_sites(sites);
  std::vector<std::size_t> order(trace.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(locs[a].file, locs[a].line) < std::tie(locs[b].file, locs[b].line);
  });
  const dim3 g = r.grid;
  const std::uint64_t gxy = std::uint64_t(g.x) * g.y;
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i : order) {
    const TracedAccess& t = trace[i];
    const bool shared = t.row.space == Space::Shared;
    nlohmann::json addresses = nlohmann::json::array(), offsets = nlohmann::json::array();
    for (unsigned lane = 0; lane < 32; ++lane) {
      const bool on = t.row.active >> lane & 1;
      addresses.push_back(on ? nlohmann::json(t.row.addr[lane]) : nlohmann::json(nullptr));
      if (shared) offsets.push_back(on ? nlohmann::json(t.shared_offset[lane]) : nlohmann::json(nullptr));
    }
    const std::uint64_t b = t.block;
    nlohmann::json e = {{"file", locs[i].short_file()},
                        {"line", locs[i].line},
                        {"space", shared ? "shared" : "global"},
                        {"op", ops[static_cast<int>(t.row.op)]},
                        {"size", t.row.size},
                        {"block", {b % g.x, b / g.x % g.y, b / gxy}},
                        {"warp", t.warp},
                        {"addresses", std::move(addresses)}};
    if (shared) e["shared_offset"] = std::move(offsets);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

std::string deferral_summary(const std::vector<LaunchRecord>& records) {
  std::size_t deferred = 0, ran = 0;
  for (const LaunchRecord& r : records)
    if (r.deferred) ++deferred, ran += r.ran_late;
  if (!deferred) return "";
  return fmt::format("{} launch{} deferred (they change memory; counted and timed when launched, executed only once "
                     "something reads what they write): {} ran then, {} never ran because nothing did\n",
                     deferred, deferred == 1 ? " was" : "es were", ran, deferred - ran);
}

std::string counter_table(const LaunchRecord& r) {
  std::string s = fmt::format("kernel {}  grid {}  block {}  dynamic shared {} B  static shared {} B", r.kernel,
                              dim(r.grid), dim(r.block), r.dynamic_shared_bytes, r.static_shared_bytes);
  if (r.cooperative) s += fmt::format("  cooperative, {} grid barrier{}", r.grid_barriers, r.grid_barriers == 1 ? "" : "s");
  if (r.repeat_of && r.deferred)  // sim/shortcuts/deferred_launches.hpp
    return s + fmt::format("  (repeat of launch {}, same counters: it changes memory, so it was deferred until "
                           "something read what it writes; {})\n",
                           r.repeat_of,
                           !r.ran_late  ? "nothing did, and it never ran"
                           : r.replayed ? "then its inputs held the bytes an earlier run's had, and that run's "
                                          "outputs were written back"
                                        : "it ran then");
  if (r.replayed)  // sim/shortcuts/content_memo.hpp
    return s + fmt::format("  (repeat of launch {}, same counters: it changes memory, but its inputs held the bytes an "
                           "earlier run's had, and that run's outputs were written back)\n",
                           r.repeat_of);
  if (r.repeat_of)  // its counters are the launch it repeats: no table again
    return s + fmt::format("  (repeat of launch {}: not re-executed, same counters{})\n", r.repeat_of,
                           r.repeat_inexact ? "; it changes memory: skipped by --skip-all-repeats" : "");
  if (r.deferred)
    s += fmt::format("\n  (counted ahead of deferred launches, on memory they had not yet written, then undone: {})",
                     r.ran_late ? "it ran again after them when its output was read" : "nothing read its output");
  if (r.counted_blocks)  // sim/shortcuts/sampling.hpp
    s += fmt::format("\n  (sampled: {} of its {} blocks counted, the others run uncounted; every counter is estimated "
                     "from the counted ones, to about {}; --exact counts them all)",
                     r.counted_blocks, volume(r.grid), sample_error_text(r.sample_error));
  s += "\n";
  s += fmt::format("  {:<58} {:>14}  {}\n", "metric", "value", "fidelity");
  int hidden = 0;
  for (const MetricInfo& m : metric_catalog()) {
    std::uint64_t v = r.totals[m.counter];
    if (v == 0) {
      ++hidden;
      continue;
    }
    s += fmt::format("  {:<58} {:>14}  {}\n", m.name, v, r.counted_blocks ? "sampled" : fidelity_name(m.fidelity));
  }
  const Counters& c = r.totals;
  std::uint64_t moved = 32 * (c[Counter::GlobalLdSectors] + c[Counter::GlobalStSectors]);
  std::uint64_t asked = c[Counter::GlobalLdBytes] + c[Counter::GlobalStBytes];
  for (const DerivedMetricInfo& m : derived_metric_catalog())
    s += fmt::format("  {:<58} {:>14}  {}\n", m.name, m.value(c), fidelity_name(m.fidelity));
  if (moved)
    s += fmt::format("  {:<58} {:>13.1f}%  derived\n", "global sector efficiency (bytes asked / bytes moved)",
                     100.0 * double(asked) / double(moved));
  if (c[Counter::WarpInst])
    s += fmt::format("  {:<58} {:>14.2f}  derived\n", "average active lanes per warp instruction",
                     double(c[Counter::ThreadInst]) / double(c[Counter::WarpInst]));
  if (hidden) s += fmt::format("  ({} counters are zero and not shown; simt metrics lists them all)\n", hidden);
  return s;
}

std::string hot_lines_table(const LaunchRecord& r, std::size_t max_lines) {
  if (r.repeat_of) return "";  // shown with the launch it repeats
  auto lines = per_line(r);
  auto score = [](const LineStats& l) {
    const Counters& c = l.c;
    return double(c[Counter::GlobalLdSectors] + c[Counter::GlobalStSectors] + c[Counter::GlobalAtomSectors] +
                  c[Counter::GlobalRedSectors]) * 32 +
           double(c[Counter::SharedLdWavefronts] + c[Counter::SharedStWavefronts]) * 128 + double(c.flops());
  };
  std::sort(lines.begin(), lines.end(), [&](auto& a, auto& b) { return score(a) > score(b); });
  std::string s = fmt::format("  {:<34} {:>10} {:>10} {:>10} {:>9} {:>12}  {}\n", "hottest lines", "requests",
                              "sectors", "shared wf", "conflicts", "FLOPs", "source");
  for (std::size_t i = 0; i < std::min(max_lines, lines.size()); ++i) {
    const Counters& c = lines[i].c;
    // Line 0: the optimizer made one instruction of several on different lines (the
    // stores of an if and its else sunk into one, as nvcc makes them one STS too).
    const bool merged = lines[i].loc.line == 0;
    std::string where = merged ? fmt::format("{}:?", lines[i].loc.short_file())
                               : fmt::format("{}:{}", lines[i].loc.short_file(), lines[i].loc.line);
    if (where.size() > 34) where = "..." + where.substr(where.size() - 31);
    std::string text = merged ? "(several lines the compiler merged into one instruction)"
                              : source_line_text(lines[i].loc.file, lines[i].loc.line);
    if (text.size() > 60) text = text.substr(0, 57) + "...";
    s += fmt::format("  {:<34} {:>10} {:>10} {:>10} {:>9} {:>12}  {}\n", where,
                     c[Counter::GlobalLdRequests] + c[Counter::GlobalStRequests] + c[Counter::GlobalAtomRequests] +
                         c[Counter::GlobalRedRequests],
                     c[Counter::GlobalLdSectors] + c[Counter::GlobalStSectors] + c[Counter::GlobalAtomSectors] +
                         c[Counter::GlobalRedSectors],
                     c[Counter::SharedLdWavefronts] + c[Counter::SharedStWavefronts],
                     c[Counter::SharedLdConflicts] + c[Counter::SharedStConflicts], c.flops(), text);
  }
  return s;
}

namespace {

// Sites are kept by their record's address, whose order changes from run to run (where
// the modules load): the arrays are sorted by content, so that two runs' JSON compare.
nlohmann::json in_canonical_order(nlohmann::json sites) {
  std::sort(sites.begin(), sites.end(),
            [](const nlohmann::json& a, const nlohmann::json& b) { return a.dump() < b.dump(); });
  return sites;
}

}  // namespace

nlohmann::json global_sites_json(const LaunchRecord& r) {
  static const char* const ops[] = {"ld", "st", "atom", "red"};
  nlohmann::json out = nlohmann::json::array();
  const Counter counters[4][2] = {{Counter::GlobalLdRequests, Counter::GlobalLdSectors},
                                  {Counter::GlobalStRequests, Counter::GlobalStSectors},
                                  {Counter::GlobalAtomRequests, Counter::GlobalAtomSectors},
                                  {Counter::GlobalRedRequests, Counter::GlobalRedSectors}};
  for (auto& [site, c] : r.per_site) {
    const double warp = double(c[Counter::WarpInst]);
    const double lanes = warp > 0 ? std::clamp(double(c[Counter::ThreadInst]) / warp, 1.0, 32.0) : 32.0;
    for (int k = 0; k < 4; ++k)
      if (c[counters[k][0]] > 0) {
        const std::uint32_t loop = site_loop(site);
        out.push_back({{"op", ops[k]}, {"requests", c[counters[k][0]]}, {"sectors", c[counters[k][1]]},
                       {"lanes", lanes}, {"straight_line", straight_line_site(site)},
                       {"loop", loop & kSiteLoopIdMask}, {"batched", (loop & kSiteLoopBatched) != 0},
                       {"deep", (loop & kSiteLoopBatched) != 0 && (loop & kSiteLoopDeep) != 0},
                       {"block", site_block(site)}, {"copies", site_copies(site)},
                       {"dram_read_bytes", k == 0 ? c[Counter::DramReadBytes] : 0},
                       {"reread_sectors", k == 0 ? c[Counter::GlobalLdRereadSectors] : 0},
                       {"l1_cycles", c[Counter::GlobalL1DataCycles]}});
      }
  }
  return in_canonical_order(std::move(out));
}

nlohmann::json shared_sites_json(const LaunchRecord& r) {
  nlohmann::json out = nlohmann::json::array();
  for (auto& [site, c] : r.per_site) {
    const double requests = double(c[Counter::SharedLdInst] + c[Counter::SharedStInst] + c[Counter::SharedAtomInst]);
    if (!(requests > 0)) continue;
    const std::uint32_t loop = site_loop(site);
    out.push_back({{"requests", requests}, {"straight_line", straight_line_site(site)},
                   {"loop", loop & kSiteLoopIdMask}, {"batched", (loop & kSiteLoopSharedBatched) != 0}});
  }
  return in_canonical_order(std::move(out));
}

nlohmann::json launch_json(const LaunchRecord& r) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const MetricInfo& m : metric_catalog()) metrics[m.name] = r.totals[m.counter];
  for (const DerivedMetricInfo& m : derived_metric_catalog()) metrics[m.name] = m.value(r.totals);
  nlohmann::json diags = nlohmann::json::array();
  for (const Diagnostic& d : r.diagnostics) {
    diags.push_back({{"kind", diag_kind_name(d.kind)},
                     {"severity", d.warning ? "warning" : "error"},
                     {"message", d.message},
                     {"block", {d.block.x, d.block.y, d.block.z}},
                     {"thread", {d.thread.x, d.thread.y, d.thread.z}},
                     {"location", d.location},
                     {"address", d.address},
                     {"allocation", d.allocation}});
  }
  nlohmann::json lines = nlohmann::json::array();
  for (const LineStats& l : per_line(r)) {
    nlohmann::json m = nlohmann::json::object();
    for (const MetricInfo& info : metric_catalog())
      if (l.c[info.counter]) m[info.name] = l.c[info.counter];
    lines.push_back({{"file", l.loc.short_file()}, {"line", l.loc.line}, {"metrics", m}});
  }
  nlohmann::json record = {{"kernel", r.kernel},
          {"grid", {r.grid.x, r.grid.y, r.grid.z}},
          {"block", {r.block.x, r.block.y, r.block.z}},
          {"dynamic_shared_bytes", r.dynamic_shared_bytes},
          {"static_shared_bytes", r.static_shared_bytes},
          {"error", r.error},
          {"device", r.device},
          {"stream", r.stream},
          {"repeat_of", r.repeat_of},
          {"repeat_inexact", r.repeat_inexact},
          {"deferred", r.deferred},
          {"ran_late", r.ran_late},
          {"replayed", r.replayed},
          {"wall_seconds", r.wall_seconds},  // the simulator's own time to run it (0 for a skipped repeat)
          {"clock", {{"start_s", r.clock_start_s}, {"seconds", r.clock_seconds}, {"bound", r.clock_bound}}},
          {"metrics", metrics},
          {"lines", lines},
          {"global_sites", global_sites_json(r)},
          {"shared_sites", shared_sites_json(r)},
          {"diagnostics", diags}};
  // The time model's account, computed once by the program's clock (sim/clock):
  // `simt exec` prints it as it is.
  if (r.clock_detail.contains("unpriced")) record["clock"]["unpriced"] = r.clock_detail["unpriced"];
  else if (!r.clock_detail.is_null()) record["time"] = r.clock_detail;
  if (r.counted_blocks) {  // sampled: counters are estimates
    record["counted_blocks"] = r.counted_blocks;
    // Relative standard error, estimated from the blocks' spread; null when one block
    // was counted (no spread to judge).
    if (r.sample_error < 1e300) record["sample_error"] = r.sample_error;
    else record["sample_error"] = nullptr;
  }
  if (r.thread_accesses) record["thread_accesses"] = thread_accesses_json(r, *r.thread_accesses);
  if (r.access_trace) record["access_trace"] = access_trace_json(r, *r.access_trace);
  if (r.cooperative) {
    record["cooperative"] = true;
    record["grid_barriers"] = r.grid_barriers;
  }
  return record;
}

}  // namespace simt
