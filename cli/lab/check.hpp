// `simt lab check`: build the learner's file, run it at each of the lab's cases
// with per-thread tallies on, and grade it (grade.hpp). An answers lab's file is
// checked against simt's own answers to the same questions.
#pragma once
#include "cli/lab/grade.hpp"
#include "cli/lab/lab.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace simt::cli::lab {

struct ReportCard {
  std::string lab, file;
  std::vector<Criterion> criteria;
  bool passed() const;
  std::size_t failures() const;
};

// `progress` hears one line per step (building, each case), for the terminal.
using ProgressFn = std::function<void(const std::string&)>;

ReportCard check_lab(const Lab& lab, const std::filesystem::path& file, const ProgressFn& progress);

}  // namespace simt::cli::lab
