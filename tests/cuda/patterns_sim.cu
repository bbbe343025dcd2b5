// The simulator side of the pattern validation: runs the same launches as the
// GPU build of patterns_main.cu and prints them as JSON (one object per launch).
#define SIMT_PATTERNS_NO_MAIN
#include "tests/cuda/patterns_main.cu"

#include "sim/report/report.hpp"

int main() {
  int rc = run_patterns();
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : simt::launch_records()) out.push_back(simt::launch_json(r));
  std::fprintf(stderr, "%s\n", out.dump(1).c_str());
  return rc;
}
