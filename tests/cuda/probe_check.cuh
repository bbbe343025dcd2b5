// What every timing probe of tests/cuda/ does after its launches of one kind: wait for
// them and stop, naming the kind, if one failed (a probe whose launch failed times
// nothing). Plain CUDA, for nvcc.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

inline void check(const char* what) {
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
