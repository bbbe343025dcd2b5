// "Did you mean ...?" for names typed by a person.
#pragma once
#include <string>
#include <vector>

namespace simt::models {

// Levenshtein distance, case-insensitive.
int edit_distance(const std::string& a, const std::string& b);

// The candidates closest to `name` (at most 3), or none when nothing is close.
std::vector<std::string> near_misses(const std::string& name, const std::vector<std::string>& candidates);

// "unknown model 'x'; did you mean 'y'? (simt model list shows all)"
std::string unknown_name_message(const std::string& kind, const std::string& name,
                                 const std::vector<std::string>& candidates, const std::string& list_cmd);

}  // namespace simt::models
