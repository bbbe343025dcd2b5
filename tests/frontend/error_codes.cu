// Every CUDA 13 error code exists, with CUDA 13's name and text, though simtlab
// returns only some: a program may test for any (helper_cuda.h's _cudaGetErrorEnum
// switches over all of them). A value no code has reads "unrecognized error code".
// <driver_types.h> can be included on its own, and __HOST_DEFINES_H__ is set, as with
// CUDA's headers (Thrust 1.x undefines __host__ without it). The expected output in
// test_frontend.cpp is this file's, built by nvcc 13.0 and run (no GPU needed).
#include <driver_types.h>
#include <cuda_runtime.h>
#include <cstdio>

static const char* kind(cudaError_t e) {
  switch (e) {
    case cudaErrorLaunchOutOfResources: return "resources";
    case cudaErrorLaunchTimeout: return "timeout";
    case cudaErrorNoKernelImageForDevice: return "image";
    case cudaErrorStreamCaptureUnsupported: return "capture";
    default: return "-";
  }
}

int main() {
  int host_defines = 0;
#ifdef __HOST_DEFINES_H__
  host_defines = 1;
#endif
  std::printf("host_defines %d\n", host_defines);
  const int codes[] = {0, 3, 9, 52, 100, 209, 215, 701, 702, 801, 900, 999, 12345};
  for (int c : codes) {
    const cudaError_t e = static_cast<cudaError_t>(c);
    std::printf("%d %s | %s | %s\n", c, cudaGetErrorName(e), cudaGetErrorString(e), kind(e));
  }
  return 0;
}
