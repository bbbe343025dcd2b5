// Two spins that never end (tests/frontend/test_limits.cpp): a flag read without
// volatile, which clang keeps as a loop on a register (-fno-finite-loops: as nvcc
// does, not deleted as C++'s forward-progress rule would allow), and a lock nobody
// releases. Each launch fails with the watchdog's diagnostic; the program goes on.
#include <cstdio>

__global__ void wait_for_flag(int* flag) {
  while (*flag == 0) {
  }
}

__global__ void take_held_lock(int* lock) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
}

int main() {
  int* word;
  cudaMalloc(&word, sizeof(int));
  cudaMemset(word, 0, sizeof(int));
  wait_for_flag<<<1, 1>>>(word);
  std::printf("flag: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaMemset(word, 0xff, sizeof(int));  // held
  take_held_lock<<<1, 1>>>(word);
  std::printf("lock: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
