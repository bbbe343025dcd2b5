// A report card as a learner reads it (aligned columns, the failing line, the
// next hint) and as a script reads it (JSON).
#pragma once
#include "cli/lab/check.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace simt::cli::lab {

std::string card_text(const Lab& lab, const ReportCard& card);
nlohmann::json card_json(const ReportCard& card);

}  // namespace simt::cli::lab
