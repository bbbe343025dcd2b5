// CUDA's built-in vector and dimension types for the simulator build.
// (The CUDA build uses nvcc's own.)
#pragma once
#include <cstdint>

struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};

namespace simt {
constexpr std::uint64_t volume(dim3 d) { return std::uint64_t(d.x) * d.y * d.z; }
}  // namespace simt
