// Name lookup that forgives case and punctuation and, when it fails, suggests the
// closest names. Shared by everything with a list of names
// (devices, links, models, kernels, commands, collectives), so every "unknown X" message reads the same.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace simt {

// "H100_sxm" -> "h100sxm": lower case, letters and digits only.
std::string normalize_name(const std::string& name);

// Index of `query` in `names`: exact match first, else the unique name whose
// normalized form equals the query's. nullopt when none or ambiguous.
std::optional<std::size_t> find_name(const std::string& query,
                                     const std::vector<std::string>& names);

// Up to `max` names closest to `query`: names the query is a prefix of come
// first (a learner typing "H10" means an H100), then by edit distance; names
// too far away to be a typo are left out.
std::vector<std::string> near_misses(const std::string& query,
                                     const std::vector<std::string>& names,
                                     std::size_t max = 2);

// "unknown device 'H10'; did you mean 'H100-SXM' or 'H100-PCIe'?" (or, with no
// near miss, "...; known: A, B, C"). With `list_cmd`, the hint names the command
// that lists them all instead of listing them: "... (`simt list` shows them all)".
std::string unknown_name_message(const std::string& kind, const std::string& query,
                                 const std::vector<std::string>& names, const std::string& list_cmd = "");

}  // namespace simt
