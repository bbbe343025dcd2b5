// Text and JSON views of a priced layer (`simt layer`).
#pragma once
#include "cost/train/layer_cost.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace simt::cost {

struct LayerReportContext {
  const models::ModelConfig& model;
  const models::LayerShape& shape;
  const DeviceSpec& device;
  const Dtype& dtype;
  const LayerCost& cost;
};

std::string to_text(const LayerReportContext& c, bool explain);
nlohmann::json to_json(const LayerReportContext& c);

}  // namespace simt::cost
