// cudaLaunchCooperativeKernel for the compiler front end: every block of the grid is
// live at once, so cooperative_groups::grid_group::sync() works (sim/exec/grid_sync.hpp);
// a grid larger than the device holds at once returns cudaErrorCooperativeLaunchTooLarge
// without running. The kernel's type is needed to unpack `args`, so it must be passed
// as itself, not cast to void*.
#pragma once
#include "sim/cuda/launch.hpp"

#include <cstdio>
#include <type_traits>
#include <utility>

template <class... P>
inline cudaError_t cudaLaunchCooperativeKernel(void (*kernel)(P...), dim3 grid, dim3 block, void** args,
                                               std::size_t shmem = 0, cudaStream_t stream = nullptr) {
  const simt::Launcher<P...> launcher(kernel, simt::LaunchConfig{grid, block, shmem, stream, true});
  return static_cast<cudaError_t>([&]<std::size_t... I>(std::index_sequence<I...>) {
    return launcher.run(*static_cast<std::decay_t<P>*>(args[I])...);
  }(std::index_sequence_for<P...>{}));
}

inline cudaError_t cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
  std::fprintf(stderr,
               "simt: cudaLaunchCooperativeKernel needs the kernel itself, not a void* (its parameter types unpack "
               "args): write cudaLaunchCooperativeKernel(kernel, ...) instead of (void*)kernel\n");
  return cudaErrorInvalidDeviceFunction;
}
