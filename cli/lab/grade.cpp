#include "cli/lab/grade.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace simt::cli::lab {

using nlohmann::json;

std::string format_value(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{}", static_cast<long long>(v));
  return fmt::format("{:.3g}", v);
}

namespace {

bool launch_matches(const json& launch, const std::string& kernel) {
  return kernel.empty() || launch.value("kernel", "").find(kernel) != std::string::npos;
}

double metric_of(const json& launch, const std::string& metric) {
  if (metric == "time_s") {  // the time model's prediction for this launch
    const json& clock = launch.value("clock", json::object());
    return clock.value("seconds", 0.0);
  }
  const json& m = launch.value("metrics", json::object());
  auto it = m.find(metric);
  return it != m.end() && it->is_number() ? it->get<double>() : 0.0;
}

// The source line that contributes most to `metric`: where to look first.
std::string busiest_line(const json& launches, const std::string& kernel, const std::string& metric) {
  double best = 0;
  std::string where;
  for (const json& l : launches) {
    if (!launch_matches(l, kernel)) continue;
    for (const json& line : l.value("lines", json::array())) {
      const json& m = line.value("metrics", json::object());
      auto it = m.find(metric);
      if (it == m.end() || !it->is_number() || it->get<double>() <= best) continue;
      best = it->get<double>();
      where = fmt::format("{}:{}", line.value("file", "?"), line.value("line", 0));
    }
  }
  return where;
}

std::optional<std::uint64_t> buffer_address(const CaseRun& run, const std::string& name) {
  if (!run.results.is_object()) return std::nullopt;
  for (const json& b : run.results.value("buffers", json::array()))
    if (b.value("name", "") == name) return b.value("address", std::uint64_t{0});
  return std::nullopt;
}

// A value the harness wrote: null is NaN (an element the kernel never wrote).
std::string text_of_number(const json& v) {
  if (!v.is_number()) return "NaN (never written?)";
  const double x = v.get<double>();
  return x == std::floor(x) && std::fabs(x) < 1e15 ? format_value(x) : fmt::format("{:.9g}", x);
}

Measure measure_accesses(const Target& t, const CaseRun& run) {
  const auto address = buffer_address(run, t.buffer);
  if (!address) return {std::nullopt, "", fmt::format("the lab's harness has no buffer named '{}'", t.buffer)};
  const char* field = t.kind == Target::Kind::PerThread ? "max_per_thread" : "max_per_block";
  Measure m{0.0, "", ""};
  bool tallied = false;
  for (const json& l : run.launches) {
    if (!launch_matches(l, t.kernel)) continue;
    if (!l.contains("thread_accesses")) continue;
    tallied = true;
    for (const json& a : l.at("thread_accesses")) {
      if (a.value("allocation", std::uint64_t{0}) != *address || a.value("op", "") != t.op) continue;
      const double v = a.value(field, 0.0);
      if (v > *m.value) m = {v, fmt::format("{}:{}", a.value("file", "?"), a.value("line", 0)), ""};
    }
  }
  if (!tallied) return {std::nullopt, "", "no launch was tallied per thread"};
  return m;
}

// A launch a sanitizer stopped has partial counters: a target read from them could
// pass on what was never measured.
bool launch_failed(const CaseRun& run, const std::string& kernel) {
  for (const json& l : run.launches)
    if (launch_matches(l, kernel) && l.value("error", 0) != 0) return true;
  return false;
}

}  // namespace

Measure measure(const Target& t, const CaseRun& run) {
  if (t.kind != Target::Kind::Launches && launch_failed(run, t.kernel))
    return {std::nullopt, "", fmt::format("not measured: a launch of case {} failed (the line above says why)", run.case_name)};
  if (t.kind == Target::Kind::PerThread || t.kind == Target::Kind::PerBlock) return measure_accesses(t, run);
  std::size_t launches = 0;
  double value = 0, per = 0;
  for (const json& l : run.launches) {
    if (!launch_matches(l, t.kernel)) continue;
    ++launches;
    if (t.kind == Target::Kind::Metric) {
      value += metric_of(l, t.metric);
      if (!t.per.empty()) per += metric_of(l, t.per);
    }
  }
  if (t.kind == Target::Kind::Launches) return {double(launches), "", ""};
  if (launches == 0)
    return {std::nullopt, "", t.kernel.empty() ? "no kernel was launched" : fmt::format("no launch of a kernel named *{}*", t.kernel)};
  if (!t.per.empty()) {
    if (per == 0) return {std::nullopt, "", fmt::format("{} is 0", t.per)};
    value /= per;
  }
  return {value, busiest_line(run.launches, t.kernel, t.metric), ""};
}

std::vector<Criterion> grade_outputs(const std::vector<CaseRun>& runs) {
  std::vector<Criterion> out;
  for (const CaseRun& r : runs) {
    Criterion c;
    c.label = fmt::format("output matches the reference: case {}", r.case_name);
    c.target = "match";
    if (!r.results.is_object()) {
      c.measured = r.status > 128 ? fmt::format("killed (signal {})", r.status - 128) : fmt::format("exit {}", r.status);
      c.detail = "the program ended before the harness could compare its outputs";
    } else {
      std::size_t bad = 0, compared = 0;
      for (const json& cmp : r.results.value("comparisons", json::array())) {
        compared += cmp.value("compared", std::size_t{0});
        bad += cmp.value("mismatches", std::size_t{0});
        if (cmp.value("mismatches", 0) > 0 && c.detail.empty())
          c.detail = fmt::format("{}[{}] = {}, the reference has {}", cmp.value("name", "?"), cmp.value("first", 0),
                                 text_of_number(cmp.at("got")), text_of_number(cmp.at("want")));
      }
      for (const json& note : r.results.value("notes", json::array()))
        if (c.detail.empty()) c.detail = note.get<std::string>();
      c.pass = r.results.value("ok", false) && bad == 0 && compared > 0;
      c.measured = c.pass ? "match" : fmt::format("{} of {} differ", bad, compared);
      if (compared == 0 && !c.pass) c.measured = "nothing compared";
    }
    out.push_back(std::move(c));
  }
  // Sanitizer errors: a race, an out-of-bounds access, an uninitialised read. The
  // output is often right by luck without the barrier; the race is not.
  Criterion s;
  s.label = "no race, out-of-bounds access or uninitialised read";
  s.target = "0";
  std::size_t errors = 0;
  for (const CaseRun& r : runs)
    for (const json& l : r.launches)
      for (const json& d : l.value("diagnostics", json::array())) {
        if (d.value("severity", "") != "error") continue;
        if (errors++ == 0) {
          s.detail = d.value("message", "");
          s.where = d.value("location", "");
        }
      }
  s.pass = errors == 0;
  if (!s.pass)
    s.hint = "The simulator stopped the launch at the line above. A race: two threads touched one word, at least\n"
             "one writing, with no __syncthreads() between them; out of bounds: an index past the array (guard it);\n"
             "uninitialised: shared memory read before any thread of the block wrote it (a barrier after the writes).";
  s.measured = fmt::format("{}", errors);
  // First: a stopped launch explains the outputs and targets below it.
  out.insert(out.begin(), std::move(s));
  return out;
}

std::vector<Criterion> grade_targets(const Lab& lab, const std::map<std::string, CaseRun>& runs,
                                     const std::map<std::string, CaseRun>& solution) {
  std::vector<Criterion> out;
  for (const Target& t : lab.targets) {
    Criterion c;
    c.label = t.label;
    c.estimate = t.estimate;
    c.hint = t.hint;
    c.metric = t.metric;
    c.case_name = t.case_name;
    std::string bound;
    if (t.min && t.max && *t.min == *t.max) bound = fmt::format("= {}", format_value(*t.min));
    else {
      if (t.min) bound = fmt::format(">= {}", format_value(*t.min));
      if (t.max) bound += fmt::format("{}<= {}", bound.empty() ? "" : ", ", format_value(*t.max));
    }
    c.target = t.relative_to_solution ? bound + " x solution" : bound;
    Measure m = measure(t, runs.at(t.case_name));
    if (m.value && t.relative_to_solution) {
      auto s = solution.find(t.case_name);
      const Measure ref = s == solution.end() ? Measure{} : measure(t, s->second);
      if (!ref.value || *ref.value == 0) {
        m = {std::nullopt, m.where, "the lab's solution gives no reference value"};
      } else {
        c.measured = fmt::format("{} x solution", format_value(*m.value / *ref.value));
        m.value = *m.value / *ref.value;
      }
    }
    if (!m.value) {
      c.measured = "-";
      c.detail = m.why;
    } else {
      if (c.measured.empty()) c.measured = format_value(*m.value);
      c.pass = (!t.min || *m.value >= *t.min - 1e-9) && (!t.max || *m.value <= *t.max + 1e-9);
      if (!c.pass) c.where = m.where;
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace simt::cli::lab
