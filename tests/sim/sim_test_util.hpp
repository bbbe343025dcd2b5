// Small helpers shared by the simulator tests. The tests with kernels are .cu files,
// built as `simt cc` builds a learner's file (clang and simtlab's pass, tests/CMakeLists.txt).
#pragma once
#include "sim/cuda/launch.hpp"
#include "sim/cuda/runtime.hpp"
#include "sim/state/launch_record.hpp"
#include "sim/report/report.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace simt::test {

inline const LaunchRecord& last_launch() {
  REQUIRE(!launch_records().empty());
  return launch_records().back();
}
inline std::uint64_t last(Counter c) { return last_launch().totals[c]; }

// A device buffer that frees itself; filled with i % 97 so loads read defined data.
template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(std::size_t count, T fill_step = T(1)) : n(count) {
    std::vector<T> host(n);
    for (std::size_t i = 0; i < n; ++i) host[i] = T(i % 97) * fill_step;
    REQUIRE(cudaMalloc(&ptr, n * sizeof(T)) == cudaSuccess);
    REQUIRE(cudaMemcpy(ptr, host.data(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  }
  ~DeviceArray() { cudaFree(ptr); }
  std::vector<T> host() const {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), ptr, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

// Planted-bug tests: no fault printed on stderr, and no error left behind (a fault's
// error is sticky, as on a GPU: forgotten here so the next test starts clean).
struct Quiet {
  Quiet() { set_report_faults(false); }
  ~Quiet() {
    set_report_faults(true);
    forget_sticky_error();
    cudaDeviceSynchronize();
    cudaGetLastError();
  }
  Quiet(const Quiet&) = delete;
  Quiet& operator=(const Quiet&) = delete;
};

}  // namespace simt::test
