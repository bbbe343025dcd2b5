// The attributes a program picks its GPU by now that CUDA 13's cudaDeviceProp has no
// clockRate or computeMode (NVIDIA's samples' helper_cuda.h asks for ClockRate,
// ComputeMode and Integrated this way), with CUDA's enum values.
#include <cuda_runtime.h>
#include <cstdio>

static void show(const char* name, cudaDeviceAttr attr) {
  int value = -1;
  cudaError_t e = cudaDeviceGetAttribute(&value, attr, 0);
  printf("%s (%d): %s %d\n", name, int(attr), cudaGetErrorName(e), value);
}

int main() {
  show("ClockRate", cudaDevAttrClockRate);
  show("Integrated", cudaDevAttrIntegrated);
  show("ComputeMode", cudaDevAttrComputeMode);
  show("MultiProcessorCount", cudaDevAttrMultiProcessorCount);
  printf("modes %d %d %d %d\n", int(cudaComputeModeDefault), int(cudaComputeModeExclusive),
         int(cudaComputeModeProhibited), int(cudaComputeModeExclusiveProcess));
  // A device that is not there is an error, as on the GPU.
  int value = -1;
  printf("device 7: %s\n", cudaGetErrorName(cudaDeviceGetAttribute(&value, cudaDevAttrClockRate, 7)));
  return 0;
}
