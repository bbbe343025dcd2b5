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

// `picture_dir`: when not empty, a failed traffic target at a known line gets a
// picture there (plots/access_pattern.py for global memory, plots/bank_map.py for
// shared memory), named in its criterion.
ReportCard check_lab(const Lab& lab, const std::filesystem::path& file, const ProgressFn& progress,
                     const std::filesystem::path& picture_dir = {});

}  // namespace simt::cli::lab
