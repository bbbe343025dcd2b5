// Bit-exactness against a real GPU: the simulator's outputs must hash to what
// the same kernel sources computed on an H200 (recorded in
// docs/validation/data/kernel_outputs_h200.txt by tests/cuda/run_kernel_outputs_gpu.sh).
#include "run_kernel.hpp"
#include "tests/cuda/kernel_cases.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

// "<label>|<buffer>" -> "<count>|<hash>"
std::map<std::string, std::string> recorded_gpu_hashes() {
  std::ifstream in(std::string(SIMTLAB_SOURCE_DIR) + "/docs/validation/data/kernel_outputs_h200.txt");
  std::map<std::string, std::string> hashes;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const std::size_t second_bar = line.find('|', line.find('|') + 1);
    hashes[line.substr(0, second_bar)] = line.substr(second_bar + 1);
  }
  return hashes;
}

}  // namespace

TEST_CASE("course kernels give the same bits as on an H200") {
  const auto gpu = recorded_gpu_hashes();
  REQUIRE_FALSE(gpu.empty());
  for (const simt::validation::KernelCase& c : simt::validation::kernel_cases()) {
    KernelRun fresh;
    const KernelRun& r = c.params.empty() ? run_defaults(c.kernel) : (fresh = run_kernel(c.kernel, c.params));
    for (const simt::kernels::Buffer& b : r.outputs.buffers) {
      char hash[64];
      std::snprintf(hash, sizeof hash, "%zu|%016llx", b.data.size(),
                    (unsigned long long)simt::validation::output_hash(b.data));
      const std::string key = c.label() + "|" + b.name;
      INFO(key);
      REQUIRE(gpu.count(key) == 1);  // a new kernel or case: record it on a GPU
      CHECK(gpu.at(key) == hash);
    }
  }
}
