// A lab as its folder describes it (labs/NN-name/checks.json, hints.md): what it
// asks, the cases it runs, and the targets it grades. labs/README.md explains the
// format; this is only its reader.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simt::cli::lab {

// One run of the learner's program: the sizes it gets on its command line.
struct LabCase {
  std::string name;
  std::vector<std::pair<std::string, std::string>> args;  // n=1000 ...
  std::string describe() const;                            // "small (n=1000)"
};

// One graded target, measured on counters the simulator defends against Nsight
// Compute, or (estimate) as a ratio against the lab's own solution.
struct Target {
  enum class Kind { Metric, PerThread, PerBlock, Launches };
  Kind kind = Kind::Metric;
  std::string label;
  std::string metric, per;     // Metric: sum of `metric` (over `per`, when given) over the launches
  std::string buffer, op;      // PerThread / PerBlock: accesses of one named buffer: read, write, atomic
  std::string kernel;          // only launches whose kernel name contains this
  std::string case_name;       // the case it is measured on (default: the lab's first)
  std::optional<double> max, min;
  bool relative_to_solution = false;  // the value divided by the solution's
  bool estimate = false;              // shown as an estimate (DRAM bytes, predicted time)
  std::string hint;                   // shown when it fails (else the lab's first hint)
};

// A question of an answers lab: the learner writes `key = value`; the checker asks
// simt the same question (`command` with --json) and compares within `rtol`.
struct Question {
  std::string key, label, unit;
  std::vector<std::string> command;
  std::string pointer;  // JSON pointer into the command's --json output
  double rtol = 0.05;
};

struct Lab {
  std::string name;  // the folder's name: 01-map
  std::filesystem::path dir;
  std::string lecture, title, summary;
  // kernel: a .cu program with the lab's harness header; ctypes: a .cu shared library
  // that the lab's Python harness loads; answers: a file of key = value lines.
  std::string kind = "kernel";
  std::string harness;  // ctypes: the Python script, in dir
  std::string starter, solution;  // file names inside dir
  std::vector<std::string> includes;  // headers `simt lab start` copies beside the starter
  std::vector<LabCase> cases;
  std::vector<Target> targets;
  std::vector<Question> questions;
  std::vector<std::string> hints;  // hints.md's sections, in increasing detail

  const LabCase& case_named(const std::string& name) const;
};

// A file's whole text; throws std::runtime_error naming a file it cannot read.
std::string read_text(const std::filesystem::path& p);

// Every lab under `root` (folders with a checks.json), in name order. A malformed
// checks.json throws std::runtime_error naming the file and the problem.
std::vector<Lab> load_labs(const std::filesystem::path& root);

// By folder name ("01-map"), by the part after the number ("map"), or by number
// ("1", "01"); an unknown name throws std::invalid_argument with near misses.
const Lab& find_lab(const std::vector<Lab>& labs, const std::string& name);

}  // namespace simt::cli::lab
