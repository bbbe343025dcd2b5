// An uncounted block's lanes take turns (sim/exec/plain_twin.cpp, the plain twin's
// pace): lane 0 of each block waits, with no barrier, for a flag that lane 1 of the
// same warp sets after it. The GPU's independent thread scheduling lets lane 1 run;
// the simulator runs a block's lanes one after another, so lane 0 must step aside
// every so many loads — at its warp log's limit in a counted block, at the plain
// twin's pace in an uncounted one — or the launch never ends. Sampled under a tiny
// budget (SIMT_OPTIONS sample_probe, sample_budget), most blocks run uncounted.
// The flag is a plain volatile word, which the race check rightly reports (CUDA's
// memory model wants an atomic or a fence): run it with races=off. An atomic spin is
// handed over by the spin watch already (sim/exec/spin_watch.hpp).
#include <cstdio>

constexpr int kBlocks = 512;

__global__ void handoff(volatile int* flag, int* out) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    while (flag[b] == 0) {
    }
    out[b] = flag[b] + 1;
  } else if (threadIdx.x == 1) {
    flag[b] = 1;
  }
}

int main() {
  int *flag, *out;
  cudaMalloc(&flag, kBlocks * sizeof(int));
  cudaMalloc(&out, kBlocks * sizeof(int));
  cudaMemset(flag, 0, kBlocks * sizeof(int));
  cudaMemset(out, 0, kBlocks * sizeof(int));
  handoff<<<kBlocks, 32>>>(flag, out);
  int h[kBlocks];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  int handed = 0;
  for (int v : h) handed += v == 2;
  printf("%d of %d blocks handed over\n", handed, kBlocks);
  return handed == kBlocks ? 0 : 1;
}
