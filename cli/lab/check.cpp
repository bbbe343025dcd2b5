#include "cli/lab/check.hpp"

#include "cli/program_build.hpp"
#include "cli/run_options.hpp"
#include "sim/options/runtime_options.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <map>

namespace simt::cli::lab {

namespace fs = std::filesystem;
using nlohmann::json;

bool ReportCard::passed() const { return failures() == 0 && !criteria.empty(); }

std::size_t ReportCard::failures() const {
  std::size_t n = 0;
  for (const Criterion& c : criteria) n += !c.pass;
  return n;
}

namespace {

// A folder for one check's files, removed when the check ends.
struct ScratchDir {
  fs::path path;
  ScratchDir() : path(fs::temp_directory_path() / fmt::format("simt-lab-{}", getpid())) { fs::create_directories(path); }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

json read_json(const fs::path& p, json fallback) {
  std::ifstream f(p);
  if (!f) return fallback;
  try {
    return json::parse(f);
  } catch (const json::exception&) {
    return fallback;
  }
}

// The options a lab program runs with: the user's, and what grading needs —
// the launches as JSON, every thread's accesses tallied, a watchdog short
// enough that a spinning kernel ends in seconds at the lab's sizes.
void export_lab_options(const fs::path& launches) {
  Options o = runtime_options();
  o.report = ReportKind::none;
  o.report_json = launches.string();
  o.timeline.clear();
  o.thread_accesses = true;
  o.trace_warps = std::max<std::uint64_t>(o.trace_warps, 2);  // the pictures of --picture
  o.watchdog_insts = std::min<std::uint64_t>(o.watchdog_insts, 100'000'000ull);
  export_options(o);
}

// A kernel lab's file is a program (the harness header has main); a ctypes lab's is a
// shared library its Python harness loads.
std::string build(const Lab& lab, const fs::path& file, bool& cached) {
  BuildRequest req{file.string(), lab.kind == "ctypes", {lab.dir.string(), (fs::path(labs_dir()) / "common").string()}, {}};
  BuildProduct p = build_program(req);
  cached = p.cached;
  return p.path;
}

// Debian's python3 has numpy (the ctypes harnesses need it).
std::string python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

CaseRun run_case(const Lab& lab, const std::string& program, const LabCase& c, const ScratchDir& scratch,
                 const std::string& tag) {
  const fs::path launches = scratch.path / fmt::format("{}-{}-launches.json", tag, c.name);
  const fs::path results = scratch.path / fmt::format("{}-{}-results.json", tag, c.name);
  const fs::path output = scratch.path / fmt::format("{}-{}-stdout.txt", tag, c.name);
  export_lab_options(launches);
  std::vector<std::string> args;
  if (lab.kind == "ctypes") args = {(lab.dir / lab.harness).string(), program};
  for (const auto& [k, v] : c.args) args.push_back(k + "=" + v);
  args.insert(args.end(), {"--results", results.string()});
  CaseRun r;
  r.case_name = c.name;
  r.status = run_program(lab.kind == "ctypes" ? python() : program, args, output.string());
  r.results = read_json(results, nullptr);
  r.launches = read_json(launches, json::array());
  std::error_code ec;
  r.output = fs::exists(output, ec) ? read_text(output) : "";
  return r;
}

// The solution's runs, for targets graded relative to it: only the cases they use.
std::map<std::string, CaseRun> run_solution(const Lab& lab, const ScratchDir& scratch, const ProgressFn& progress) {
  std::map<std::string, CaseRun> runs;
  std::vector<std::string> cases;
  for (const Target& t : lab.targets)
    if (t.relative_to_solution && std::find(cases.begin(), cases.end(), t.case_name) == cases.end())
      cases.push_back(t.case_name);
  if (cases.empty()) return runs;
  bool cached = false;
  const std::string program = build(lab, lab.dir / lab.solution, cached);
  for (const std::string& name : cases) {
    progress(fmt::format("running the lab's solution, case {} (the reference for estimates)", name));
    runs[name] = run_case(lab, program, lab.case_named(name), scratch, "solution");
  }
  return runs;
}

// The script that pictures a failed target: global traffic as each lane's sectors,
// shared traffic as each lane's bank. Empty when the target is neither.
std::string picture_script(const std::string& metric) {
  if (metric.find("shared") != std::string::npos) return "bank_map.py";
  if (metric.find("global") != std::string::npos) return "access_pattern.py";
  return "";
}

// Draws each failed traffic target's line from its case's launches (with their warp
// trace) into `dir`; a script that fails leaves the criterion without a picture.
void draw_pictures(const Lab& lab, std::vector<Criterion>& criteria, const ScratchDir& scratch, const fs::path& dir,
                   const ProgressFn& progress) {
  for (Criterion& c : criteria) {
    const std::string script = picture_script(c.metric);
    const auto colon = c.where.rfind(':');
    if (c.pass || script.empty() || colon == std::string::npos) continue;
    const std::string file = fs::path(c.where.substr(0, colon)).filename().string(), line = c.where.substr(colon + 1);
    const fs::path launches = scratch.path / fmt::format("learner-{}-launches.json", c.case_name);
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path png = dir / fmt::format("{}-{}-line{}.png", lab.name, fs::path(file).stem().string(), line);
    progress(fmt::format("drawing {}", png.string()));
    const int status = run_program(python(), {(fs::path(plots_dir()) / script).string(), launches.string(), "--line",
                                              line, "--file", file, "-o", png.string()},
                                   (scratch.path / "picture.txt").string());
    if (status == 0) c.picture = png.string();
  }
}

ReportCard check_kernel_lab(const Lab& lab, const fs::path& file, const ProgressFn& progress, const fs::path& pictures) {
  ReportCard card{lab.name, file.string(), {}};
  ScratchDir scratch;
  progress(fmt::format("building {}", file.string()));
  std::string program;
  try {
    bool cached = false;
    program = build(lab, file, cached);
  } catch (const std::runtime_error& e) {
    Criterion built;
    built.label = "builds", built.measured = "no", built.target = "yes", built.detail = e.what();
    card.criteria.push_back(built);
    return card;
  }
  Criterion built;
  built.label = "builds", built.measured = "yes", built.target = "yes", built.pass = true;
  card.criteria.push_back(built);
  std::vector<CaseRun> runs;
  std::map<std::string, CaseRun> by_name;
  for (const LabCase& c : lab.cases) {
    progress(fmt::format("running case {}", c.describe()));
    runs.push_back(run_case(lab, program, c, scratch, "learner"));
    by_name[c.name] = runs.back();
  }
  for (Criterion& c : grade_outputs(runs)) card.criteria.push_back(std::move(c));
  const auto solution = run_solution(lab, scratch, progress);
  for (Criterion& c : grade_targets(lab, by_name, solution)) card.criteria.push_back(std::move(c));
  if (!pictures.empty()) draw_pictures(lab, card.criteria, scratch, pictures, progress);
  return card;
}

// An answers file: `key = value` lines; `#` starts a comment.
std::map<std::string, std::string> read_answers(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(fmt::format("cannot read {}", file.string()));
  std::map<std::string, std::string> answers;
  std::string line;
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(" \t\r"));
    s.erase(s.find_last_not_of(" \t\r") + 1);
    return s;
  };
  while (std::getline(in, line)) {
    line = line.substr(0, line.find('#'));
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    answers[trim(line.substr(0, eq))] = trim(line.substr(eq + 1));
  }
  return answers;
}

// simt's own answer: the question's command with --json, read at its pointer.
std::optional<double> simt_answer(const Question& q, const ScratchDir& scratch, std::string& why) {
  const fs::path out = scratch.path / fmt::format("answer-{}.json", q.key);
  std::vector<std::string> args = q.command;
  args.push_back("--json");
  const int status = run_program("/proc/self/exe", args, out.string());
  const json j = read_json(out, nullptr);
  // Exit 1 is "it ran, a check failed" (a layout that does not fit): its JSON still
  // holds the numbers a question may ask about (why ZeRO-1 alone does not fit).
  if ((status != 0 && status != 1) || j.is_null()) {
    why = fmt::format("`simt {}` failed (exit {})", fmt::join(args, " "), status);
    return std::nullopt;
  }
  const json::json_pointer ptr(q.pointer);
  if (!j.contains(ptr) || !j.at(ptr).is_number()) {
    why = fmt::format("`simt {}` has no number at {}", fmt::join(args, " "), q.pointer);
    return std::nullopt;
  }
  return j.at(ptr).get<double>();
}

ReportCard check_answers_lab(const Lab& lab, const fs::path& file, const ProgressFn& progress) {
  ReportCard card{lab.name, file.string(), {}};
  ScratchDir scratch;
  const auto answers = read_answers(file);
  for (const Question& q : lab.questions) {
    progress(fmt::format("asking simt: {}", q.label));
    Criterion c;
    c.label = fmt::format("{} ({})", q.label, q.key);
    c.measured = "-";
    std::string why;
    const auto want = simt_answer(q, scratch, why);
    // simt's own answer shows only once the learner's matches: the check grades, it does not tell.
    c.target = fmt::format("within {}%", format_value(q.rtol * 100));
    auto it = answers.find(q.key);
    if (it == answers.end() || it->second.empty()) {
      c.detail = fmt::format("no answer: write a line `{} = VALUE` in {}", q.key, file.string());
    } else {
      char* end = nullptr;
      const double got = std::strtod(it->second.c_str(), &end);
      c.measured = it->second;
      if (end == it->second.c_str() || !std::isfinite(got)) c.detail = fmt::format("'{}' is not a number", it->second);
      else if (!want) c.detail = why;
      else c.pass = std::fabs(got - *want) <= q.rtol * std::fabs(*want);
      if (want && c.pass) c.target = fmt::format("{} {} ± {}%", format_value(*want), q.unit, format_value(q.rtol * 100));
      if (want && !c.pass && c.detail.empty())
        c.detail = fmt::format("{} {} is not within {}% of simtlab's answer", it->second, q.unit, format_value(q.rtol * 100));
    }
    card.criteria.push_back(std::move(c));
  }
  return card;
}

}  // namespace

ReportCard check_lab(const Lab& lab, const fs::path& file, const ProgressFn& progress, const fs::path& pictures) {
  if (!fs::is_regular_file(file)) throw std::invalid_argument(fmt::format("{} is not a file", file.string()));
  return lab.kind == "answers" ? check_answers_lab(lab, file, progress)
                               : check_kernel_lab(lab, file, progress, pictures);
}

}  // namespace simt::cli::lab
