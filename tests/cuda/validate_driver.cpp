// The validation driver: runs every registered kernel (kernels/*.cu) once with
// its default parameters and writes each output buffer to DIR/<kernel>.<buffer>.f32
// (raw little-endian float32). Built twice from the same sources:
//   - with nvcc for the GPU (tests/cuda/validate.sh gpu), profiled by ncu;
//   - against the simulator (CMake target validate_driver_sim), which also
//     writes the launches as JSON (report_at_exit.cpp, the option report_json).
// Both runs print "kernel NAME" lines in the same order; the simulator run also
// writes DIR/launch_labels.txt, one "spec: kernel" line per launch, which names
// the rows of the counter comparison.
#include "kernels/harness.hpp"

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#include "sim/cuda/runtime.hpp"  // the simulator's runtime API (the kernels are linked in)
#endif

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#if !defined(__CUDACC__)
#include "sim/state/launch_record.hpp"
#endif

namespace {

std::size_t launches_so_far() {
#if defined(__CUDACC__)
  return 0;
#else
  return simt::launch_records().size();
#endif
}

std::string launch_kernel_name(std::size_t i) {
#if defined(__CUDACC__)
  (void)i;
  return "";
#else
  return simt::launch_records()[i].kernel;
#endif
}

bool write_buffer(const std::string& path, const std::vector<float>& data) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size() * sizeof(float)));
  return static_cast<bool>(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s OUTDIR [KERNEL...]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<std::string> only(argv + 2, argv + argc);
  std::ofstream labels(dir + "/launch_labels.txt");
  int failures = 0;
  for (const auto& spec : simt::kernels::registry()) {
    if (!only.empty() && std::find(only.begin(), only.end(), spec.name) == only.end()) continue;
    std::size_t first = launches_so_far();
    simt::kernels::Outputs out = spec.run(simt::kernels::with_defaults(spec, {}));
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("kernel %s: %s\n", spec.name.c_str(), cudaGetErrorString(e));
    failures += e != cudaSuccess;
    for (const auto& b : out.buffers)
      if (!write_buffer(dir + "/" + spec.name + "." + b.name + ".f32", b.data)) {
        std::fprintf(stderr, "cannot write %s/%s.%s.f32\n", dir.c_str(), spec.name.c_str(), b.name.c_str());
        ++failures;
      }
    for (std::size_t i = first; i < launches_so_far(); ++i) labels << spec.name << ": " << launch_kernel_name(i) << "\n";
  }
  return failures == 0 ? 0 : 1;
}
