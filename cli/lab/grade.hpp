// Grading one lab run: the criteria of a report card, from what the learner's
// program produced (its result file and its launches' JSON) and the lab's targets.
// Pure data in, data out: running the programs is check.cpp's.
#pragma once
#include "cli/lab/lab.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace simt::cli::lab {

// What one run of a lab program left: its status, its result file (harness:
// comparisons and named buffers) and its launches (simt exec's JSON).
struct CaseRun {
  std::string case_name;
  int status = 0;
  nlohmann::json results;   // null when the program wrote none (it crashed first)
  nlohmann::json launches;  // array
  std::string output;       // the program's stdout
};

struct Criterion {
  std::string label;
  std::string measured, target;  // as printed
  bool pass = false;
  bool estimate = false;
  std::string where;  // file:line responsible for a failure, when known
  std::string detail; // one line on what went wrong
  std::string hint;
  std::string metric;   // the counter a failed target measured (for its picture)
  std::string case_name;
  std::string picture;  // a PNG that shows the failure (simt lab check --picture)
};

// The value a target measures in one run; nullopt with `why` when it cannot be
// measured (a buffer the harness did not name, no launch of the kernel).
struct Measure {
  std::optional<double> value;
  std::string where, why;
};
Measure measure(const Target& t, const CaseRun& run);

// Output criteria: no sanitizer error (first: it explains the rest), then every
// case ran and every comparison matched.
std::vector<Criterion> grade_outputs(const std::vector<CaseRun>& runs);

// Counted targets. `solution` holds the solution's runs by case name, for the
// targets relative to it.
std::vector<Criterion> grade_targets(const Lab& lab, const std::map<std::string, CaseRun>& runs,
                                     const std::map<std::string, CaseRun>& solution);

// "4", "0.125", "1.5e+06": numbers as a report card prints them.
std::string format_value(double v);

}  // namespace simt::cli::lab
