// Runs each line of tests/cuda/timing_cases.txt ("kernel --param value ...") once,
// so that `ncu` can time every launch. Built with nvcc by run_timing_gpu.sh.
#include "kernels/harness.hpp"
#include <cuda_runtime.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CASES_FILE\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  int failures = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string kernel, name, value;
    words >> kernel;
    std::map<std::string, std::string> params;
    while (words >> name >> value) params[name.substr(2)] = value;
    const auto& spec = simt::kernels::find_kernel(kernel);
    spec.run(simt::kernels::with_defaults(spec, params));
    cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s: %s\n", line.c_str(), cudaGetErrorString(e));
    failures += e != cudaSuccess;
  }
  return failures ? 1 : 0;
}
