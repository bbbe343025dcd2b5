// A model as JSON and as a short text card, for `simt model list/show`.
#pragma once
#include "models/model.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace simt::models {

nlohmann::json to_json(const ModelConfig& m);  // shape, parameter counts, sources
std::string to_text(const ModelConfig& m);

}  // namespace simt::models
