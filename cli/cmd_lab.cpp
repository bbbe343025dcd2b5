// simt lab list | show | start | check | hint: the labs (labs/README.md). The work
// is in cli/lab/: reading a lab, checking a file, the report card, progress.
#include "commands.hpp"
#include "exit_codes.hpp"
#include "program_build.hpp"

#include "cli/lab/check.hpp"
#include "cli/lab/lab.hpp"
#include "cli/lab/progress.hpp"
#include "cli/lab/report_card.hpp"

#include <fmt/core.h>

#include <filesystem>
#include <memory>

namespace simt::cli {

namespace {

namespace fs = std::filesystem;
using lab::Lab;

const std::vector<Lab>& all_labs() {
  static const std::vector<Lab> labs = lab::load_labs(labs_dir());
  return labs;
}

[[noreturn]] void finish(int code) { throw CLI::RuntimeError(code); }

void list_labs(bool json) {
  const auto progress = lab::read_progress();
  auto status_of = [&](const Lab& l) {
    auto it = progress.find(l.name);
    return it == progress.end() ? std::string("not started") : it->second.status;
  };
  if (json) {
    nlohmann::json out = nlohmann::json::array();
    for (const Lab& l : all_labs())
      out.push_back({{"name", l.name}, {"lecture", l.lecture}, {"title", l.title}, {"kind", l.kind},
                     {"status", status_of(l)}, {"dir", l.dir.string()}});
    fmt::print("{}\n", out.dump(2));
    return;
  }
  std::size_t wn = 4, wl = 7, wt = 5;
  for (const Lab& l : all_labs()) {
    wn = std::max(wn, l.name.size());
    wl = std::max(wl, l.lecture.size());
    wt = std::max(wt, l.title.size());
  }
  fmt::print("{:<{}}  {:<{}}  {:<{}}  {}\n", "name", wn, "lecture", wl, "title", wt, "status");
  std::size_t passed = 0;
  for (const Lab& l : all_labs()) {
    const std::string s = status_of(l);
    passed += s == "passed";
    fmt::print("{:<{}}  {:<{}}  {:<{}}  {}\n", l.name, wn, l.lecture, wl, l.title, wt, s);
  }
  fmt::print("\n{} of {} passed. Start one: simt lab start NAME; read it: simt lab show NAME\n", passed,
             all_labs().size());
}


void show_lab(const std::string& name) {
  const Lab& l = lab::find_lab(all_labs(), name);
  fmt::print("{}", lab::read_text(l.dir / "README.md"));
  fmt::print("\n---\nfiles: {}\nstart: simt lab start {}\ncheck: simt lab check {} FILE\n", l.dir.string(), l.name,
             l.name);
}

// The starter and the headers it includes, into `dir`; nothing that exists is replaced.
int start_lab(const std::string& name, std::string dir) {
  const Lab& l = lab::find_lab(all_labs(), name);
  if (dir.empty()) dir = l.name;
  std::vector<std::pair<fs::path, fs::path>> copies = {{l.dir / l.starter, fs::path(dir) / l.starter}};
  for (const std::string& inc : l.includes) copies.push_back({l.dir / inc, fs::path(dir) / inc});
  if (l.kind == "kernel")
    copies.push_back({fs::path(labs_dir()) / "common" / "simtlab_lab.cuh", fs::path(dir) / "simtlab_lab.cuh"});
  for (const auto& [from, to] : copies)
    if (fs::exists(fs::symlink_status(to))) {
      fmt::print(stderr, "simt lab start: {} exists; nothing was copied (simt lab start {} OTHER_DIR starts afresh)\n",
                 to.string(), l.name);
      return kExitFailed;
    }
  fs::create_directories(dir);
  for (const auto& [from, to] : copies) fs::copy_file(from, to);
  lab::record_progress(l.name, "started", (fs::path(dir) / l.starter).string());
  fmt::print("Lab {}: {}\n\n  your file:  {}\n  read first: simt lab show {}\n  check it:   simt lab check {} {}\n",
             l.name, l.title, (fs::path(dir) / l.starter).string(), l.name, l.name,
             (fs::path(dir) / l.starter).string());
  if (l.kind == "kernel")
    fmt::print("  run it:     simt exec {}\n", (fs::path(dir) / l.starter).string());
  return kExitOk;
}

int check_lab(const std::string& name, const std::string& file, bool json, const std::string& pictures) {
  const Lab& l = lab::find_lab(all_labs(), name);
  const lab::ReportCard card = lab::check_lab(
      l, file, [](const std::string& step) { fmt::print(stderr, "simt lab: {}\n", step); }, pictures);
  if (json) fmt::print("{}\n", lab::card_json(card).dump(2));
  else fmt::print("{}", lab::card_text(l, card));
  // The lab's own solution passing says nothing about the learner's progress.
  std::error_code ec;
  const bool own_solution = fs::equivalent(file, l.dir / l.solution, ec);
  if (card.passed() && !own_solution) lab::record_progress(l.name, "passed", fs::absolute(file).string());
  return card.passed() ? kExitOk : kExitFailed;
}

int show_hint(const std::string& name, int n) {
  const Lab& l = lab::find_lab(all_labs(), name);
  if (l.hints.empty()) throw std::invalid_argument(fmt::format("lab {} has no hints", l.name));
  if (n < 1 || n > int(l.hints.size()))
    throw std::invalid_argument(fmt::format("lab {} has hints 1 to {}", l.name, l.hints.size()));
  fmt::print("Hint {} of {} ({}):\n\n{}\n", n, l.hints.size(), l.name, l.hints[n - 1]);
  return kExitOk;
}

}  // namespace

void add_lab_commands(CLI::App& app) {
  auto* lab = app.add_subcommand("lab", "The labs: a path through the course, graded by what the hardware would count");
  lab->require_subcommand(1);

  auto list_json = std::make_shared<bool>(false);
  auto* list = lab->add_subcommand("list", "Every lab with its lecture and your progress");
  list->add_flag("--json", *list_json, "print JSON");
  list->callback([list_json] { list_labs(*list_json); });

  auto name = std::make_shared<std::string>();
  auto* show = lab->add_subcommand("show", "A lab's README: the question, the steps, what done means");
  show->add_option("name", *name, "the lab (01-map, map or 1)")->required();
  show->callback([name] { show_lab(*name); });

  auto dir = std::make_shared<std::string>();
  auto* start = lab->add_subcommand("start", "Copy a lab's starter where you work (never overwriting a file)");
  start->add_option("name", *name, "the lab")->required();
  start->add_option("dir", *dir, "where (default: a folder named after the lab)");
  start->callback([name, dir] { finish(start_lab(*name, *dir)); });

  auto file = std::make_shared<std::string>();
  auto check_json = std::make_shared<bool>(false);
  auto* check = lab->add_subcommand("check", "Build and run your file at the lab's sizes and grade it: a report card");
  check->add_option("name", *name, "the lab")->required();
  check->add_option("file", *file, "your file (your copy of the starter)")->required()->check(CLI::ExistingFile);
  check->add_flag("--json", *check_json, "print the report card as JSON");
  auto pictures = std::make_shared<std::string>();
  check->add_option("--picture", *pictures,
                    "draw each failed traffic target's source line into this folder: the sectors each lane touches "
                    "(plots/access_pattern.py) or the bank each lane hits (plots/bank_map.py)")
      ->type_name("DIR");
  check->callback([name, file, check_json, pictures] { finish(check_lab(*name, *file, *check_json, *pictures)); });

  auto n = std::make_shared<int>(1);
  auto* hint = lab->add_subcommand("hint", "A lab's hints, each more detailed than the one before");
  hint->add_option("name", *name, "the lab")->required();
  hint->add_option("n", *n, "which hint (default 1)");
  hint->callback([name, n] { finish(show_hint(*name, *n)); });
}

}  // namespace simt::cli
