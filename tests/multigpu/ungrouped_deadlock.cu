// One host thread drives two ranks and calls ncclAllReduce for rank 0 outside a
// group: on GPUs NCCL hangs here (rank 1's call never comes). simtlab refuses the
// call with ncclInvalidUsage and says why (tests/multigpu/run.sh).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

int main() {
  ncclComm_t comms[2];
  if (ncclCommInitAll(comms, 2, nullptr) != ncclSuccess) return 2;
  float* buf[2];
  for (int g = 0; g < 2; ++g) {
    cudaSetDevice(g);
    cudaMalloc(&buf[g], 64 * sizeof(float));
  }
  cudaSetDevice(0);
  const ncclResult_t r = ncclAllReduce(buf[0], buf[0], 64, ncclFloat, ncclSum, comms[0], nullptr);
  std::printf("%s: %s\n", r == ncclSuccess ? "ran" : "refused", ncclGetErrorString(r));
  return r == ncclSuccess ? 1 : 0;
}
