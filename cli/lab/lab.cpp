#include "cli/lab/lab.hpp"

#include "util/near_miss.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace simt::cli::lab {

namespace fs = std::filesystem;
using nlohmann::json;

std::string LabCase::describe() const {
  std::string sizes;
  for (const auto& [k, v] : args) sizes += fmt::format("{}{}={}", sizes.empty() ? "" : " ", k, v);
  return sizes.empty() ? name : fmt::format("{} ({})", name, sizes);
}

const LabCase& Lab::case_named(const std::string& want) const {
  for (const LabCase& c : cases)
    if (c.name == want) return c;
  throw std::runtime_error(fmt::format("lab {}: no case named '{}'", name, want));
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  if (!f) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

namespace {

std::string text_of(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

Target read_target(const json& t) {
  Target r;
  r.label = t.at("label").get<std::string>();
  r.hint = t.value("hint", "");
  r.kernel = t.value("kernel", "");
  r.case_name = t.value("case", "");
  r.relative_to_solution = t.value("relative_to", "") == "solution";
  r.estimate = t.value("estimate", false);
  if (t.contains("max")) r.max = t.at("max").get<double>();
  if (t.contains("min")) r.min = t.at("min").get<double>();
  if (!r.max && !r.min) throw std::runtime_error(fmt::format("target '{}' has neither max nor min", r.label));
  if (t.contains("per_thread") || t.contains("per_block")) {
    const json& a = t.contains("per_thread") ? t.at("per_thread") : t.at("per_block");
    r.kind = t.contains("per_thread") ? Target::Kind::PerThread : Target::Kind::PerBlock;
    r.buffer = a.at("buffer").get<std::string>();
    r.op = a.at("op").get<std::string>();
    if (r.op != "read" && r.op != "write" && r.op != "atomic")
      throw std::runtime_error(fmt::format("target '{}': op must be read, write or atomic", r.label));
  } else if (t.value("launches", false)) {
    r.kind = Target::Kind::Launches;
  } else {
    r.metric = t.at("metric").get<std::string>();
    r.per = t.value("per", "");
  }
  return r;
}

Question read_question(const json& q) {
  Question r;
  r.key = q.at("key").get<std::string>();
  r.label = q.at("label").get<std::string>();
  r.unit = q.value("unit", "");
  r.command = q.at("command").get<std::vector<std::string>>();
  r.pointer = q.at("pointer").get<std::string>();
  r.rtol = q.value("rtol", 0.05);
  return r;
}

// hints.md: one `## ` section per hint, in increasing detail.
std::vector<std::string> read_hints(const fs::path& p) {
  std::vector<std::string> hints;
  if (!fs::exists(p)) return hints;
  std::istringstream in(read_text(p));
  std::string line;
  bool in_hint = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) {
      hints.emplace_back();
      in_hint = true;
      continue;
    }
    if (in_hint) hints.back() += line + "\n";
  }
  for (std::string& h : hints) {
    h.erase(0, h.find_first_not_of("\n"));
    h.erase(h.find_last_not_of("\n") + 1);
  }
  return hints;
}

Lab read_lab(const fs::path& dir) {
  const fs::path file = dir / "checks.json";
  Lab lab;
  lab.name = dir.filename().string();
  lab.dir = dir;
  try {
    const json j = json::parse(read_text(file));
    lab.lecture = j.at("lecture").get<std::string>();
    lab.title = j.at("title").get<std::string>();
    lab.summary = j.value("summary", "");
    lab.kind = j.value("kind", "kernel");
    if (lab.kind != "kernel" && lab.kind != "ctypes" && lab.kind != "answers")
      throw std::runtime_error(fmt::format("kind '{}': takes kernel, ctypes or answers", lab.kind));
    lab.harness = j.value("harness", "");
    if (lab.kind == "ctypes" && lab.harness.empty()) throw std::runtime_error("a ctypes lab names its harness");
    lab.starter = j.at("starter").get<std::string>();
    lab.solution = j.at("solution").get<std::string>();
    lab.includes = j.value("includes", std::vector<std::string>{});
    for (const json& c : j.value("cases", json::array())) {
      LabCase lc{c.at("name").get<std::string>(), {}};
      const json args = c.value("args", json::object());  // items() must not outlive it
      for (const auto& [k, v] : args.items()) lc.args.emplace_back(k, text_of(v));
      lab.cases.push_back(std::move(lc));
    }
    for (const json& t : j.value("targets", json::array())) lab.targets.push_back(read_target(t));
    for (const json& q : j.value("questions", json::array())) lab.questions.push_back(read_question(q));
    if (lab.kind != "answers" && lab.cases.empty()) throw std::runtime_error("a kernel lab needs at least one case");
    if (lab.kind == "answers" && lab.questions.empty()) throw std::runtime_error("an answers lab needs questions");
    for (Target& t : lab.targets) {
      if (t.case_name.empty()) t.case_name = lab.cases.front().name;
      lab.case_named(t.case_name);  // throws on an unknown case
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(fmt::format("{}: {}", file.string(), e.what()));
  }
  lab.hints = read_hints(dir / "hints.md");
  return lab;
}

// "01-map" -> "map"
std::string short_name(const std::string& name) {
  const auto dash = name.find('-');
  return dash == std::string::npos ? name : name.substr(dash + 1);
}

}  // namespace

std::vector<Lab> load_labs(const fs::path& root) {
  std::vector<Lab> labs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(root, ec))
    if (entry.is_directory() && fs::exists(entry.path() / "checks.json")) labs.push_back(read_lab(entry.path()));
  if (ec) throw std::runtime_error(fmt::format("cannot list the labs in {}: {}", root.string(), ec.message()));
  std::sort(labs.begin(), labs.end(), [](const Lab& a, const Lab& b) { return a.name < b.name; });
  return labs;
}

const Lab& find_lab(const std::vector<Lab>& labs, const std::string& name) {
  std::vector<std::string> names;
  for (const Lab& l : labs) names.push_back(l.name);
  const std::string wanted = fs::path(name).filename().string();  // labs/01-map/ works too
  for (const Lab& l : labs)
    if (l.name == wanted || short_name(l.name) == wanted) return l;
  const bool number = !wanted.empty() && std::all_of(wanted.begin(), wanted.end(), ::isdigit);
  if (number)
    for (const Lab& l : labs)
      if (std::atoi(l.name.c_str()) == std::atoi(wanted.c_str())) return l;
  throw std::invalid_argument(unknown_name_message("lab", name, names, "simt lab list"));
}

}  // namespace simt::cli::lab
