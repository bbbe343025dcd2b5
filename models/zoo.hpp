// The model zoo: published LLM architectures by name.
#pragma once
#include "models/model.hpp"

#include <string>
#include <vector>

namespace simt::models {

const std::vector<ModelConfig>& zoo();
std::vector<std::string> model_names();

// Case-insensitive lookup; throws std::invalid_argument with a near-miss suggestion.
const ModelConfig& find_model(const std::string& name);

}  // namespace simt::models
