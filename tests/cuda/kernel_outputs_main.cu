// Runs the course kernels on a real GPU and prints, per output buffer,
//   <kernel><tag>|<buffer>|<element count>|<hash of the float bits>
// The simulator must produce the same hashes (tests/kernels/test_gpu_outputs.cpp
// reads the recorded file docs/validation/data/kernel_outputs_h200.txt).
// Build and run: tests/cuda/run_kernel_outputs_gpu.sh
#include "tests/cuda/kernel_cases.hpp"

#include <cinttypes>
#include <cstdio>
#include <exception>

int main() {
  int failures = 0;
  for (const simt::validation::KernelCase& c : simt::validation::kernel_cases()) {
    try {
      const auto& spec = simt::kernels::find_kernel(c.kernel);
      const simt::kernels::Outputs out = spec.run(simt::kernels::with_defaults(spec, c.params));
      const cudaError_t e = cudaDeviceSynchronize();
      if (e != cudaSuccess) {
        std::printf("# %s: %s\n", c.label().c_str(), cudaGetErrorString(e));
        ++failures;
        continue;
      }
      for (const simt::kernels::Buffer& b : out.buffers)
        std::printf("%s|%s|%zu|%016" PRIx64 "\n", c.label().c_str(), b.name.c_str(), b.data.size(),
                    simt::validation::output_hash(b.data));
    } catch (const std::exception& ex) {
      std::printf("# %s: %s\n", c.label().c_str(), ex.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
