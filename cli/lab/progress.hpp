// A learner's progress through the labs, kept on their machine:
// $XDG_STATE_HOME/simtlab/labs.json (~/.local/state/simtlab/labs.json by default).
// `simt lab start` marks a lab started, a passing `simt lab check` marks it passed;
// `simt lab list` shows both.
#pragma once
#include <filesystem>
#include <map>
#include <string>

namespace simt::cli::lab {

struct LabProgress {
  std::string status;  // started, passed
  std::string file;    // the file last started or checked
  std::string when;    // UTC, ISO 8601
};

std::filesystem::path progress_file();

// A missing or unreadable file is no progress (a warning for an unreadable one).
std::map<std::string, LabProgress> read_progress();

// Passed stays passed: a later start or failing check does not undo it.
void record_progress(const std::string& lab, const std::string& status, const std::string& file);

}  // namespace simt::cli::lab
