// simtlab's kernel dialect: the one header a kernel file includes. With nvcc it
// maps the dialect onto CUDA itself; with g++/clang it brings in the simulator.
// Every difference from plain CUDA is listed in docs/dialect.md.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

using f32 = float;
using f64 = double;
using i32 = int;
using u32 = unsigned;
using i64 = long long;
using u64 = unsigned long long;

namespace simt {
template <class... P>
struct Launcher {
  void (*kernel)(P...);
  dim3 grid, block;
  std::size_t shmem;
  cudaStream_t stream;
  template <class... A>
  void operator()(A&&... args) const {
    kernel<<<grid, block, shmem, stream>>>(std::forward<A>(args)...);
  }
};
template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem = 0, cudaStream_t stream = 0) {
  return {kernel, grid, block, shmem, stream};
}
}  // namespace simt

#define SIMT_DYNAMIC_SHARED(T, name) extern __shared__ T name[]

#include "sim/cuda/port_support.hpp"
#include "sim/cuda/portable_math.hpp"

#elif defined(SIMT_CLANG_FRONTEND)  // clang + simtlab's pass (docs/frontend.md): plain types, counted by the compiler
#include <cuda_runtime.h>  // simtlab's, sim/compiler/include: CUDA's names and simt::launch

using f32 = float;
using f64 = double;
using i32 = int;
using u32 = unsigned;
using i64 = long long;
using u64 = unsigned long long;

#include "sim/cuda/port_support.hpp"
#include "sim/cuda/portable_math.hpp"

#else  // simulator build

#include "sim/cuda/intrinsics.hpp"
#include "sim/cuda/launch.hpp"
#include "sim/cuda/math.hpp"
#include "sim/cuda/runtime.hpp"

#define SIMT_DYNAMIC_SHARED(T, name) T* const name = reinterpret_cast<T*>(::simt::dynamic_shared_base())

#include "sim/cuda/port_support.hpp"
#include "sim/cuda/portable_math.hpp"

#endif
