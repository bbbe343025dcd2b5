// grid.sync() under cudaLaunchCooperativeKernel (issue 10): every block writes its
// partial sum, the grid waits, block 0 adds the partials; then, over several grid
// barriers in a loop, each block reads what its neighbour wrote in the phase before.
// Both results are checked here, and the grid group's ranks and sizes against the
// built-in variables.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void sum_two_phase(const float* in, int n, float* partial, float* total, unsigned* bad) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[128];
  float v = 0;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n; i += grid.size()) v += in[i];
  s[block.thread_rank()] = v;
  block.sync();
  for (unsigned k = block.size() / 2; k > 0; k /= 2) {
    if (block.thread_rank() < k) s[block.thread_rank()] += s[block.thread_rank() + k];
    block.sync();
  }
  if (block.thread_rank() == 0) partial[grid.block_rank()] = s[0];
  // The group's ranks and sizes, as CUDA 13 defines them.
  const unsigned long long br = blockIdx.x + gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  const dim3 bi = grid.block_index(), db = grid.dim_blocks();
  if (grid.block_rank() != br || grid.num_blocks() != gridDim.x * gridDim.y * gridDim.z ||
      grid.thread_rank() != br * blockDim.x * blockDim.y * blockDim.z + block.thread_rank() ||
      grid.size() != grid.num_blocks() * block.size() || grid.num_threads() != grid.size() || !grid.is_valid() ||
      bi.x != blockIdx.x || bi.y != blockIdx.y || bi.z != blockIdx.z || db.x != gridDim.x || db.y != gridDim.y ||
      db.z != gridDim.z)
    atomicAdd(bad, 1u);
  grid.sync();
  if (grid.block_rank() == 0 && block.thread_rank() == 0) {
    float t = 0;
    for (unsigned long long b = 0; b < grid.num_blocks(); ++b) t += partial[b];
    *total = t;
  }
}

// Phase p: block b writes ring[p][b] = ring[p-1][b-1] + 1, so after P phases
// ring[P][b] = P + (b - P) mod nb: each phase reads its neighbour's previous write.
__global__ void ring(int* ring, int phases) {
  cg::grid_group grid = cg::this_grid();
  const unsigned nb = unsigned(grid.num_blocks()), b = unsigned(grid.block_rank());
  if (threadIdx.x == 0) ring[b] = int(b);
  for (int p = 1; p <= phases; ++p) {
    grid.sync();
    if (threadIdx.x == 0) ring[p * nb + b] = ring[(p - 1) * nb + (b + nb - 1) % nb] + 1;
  }
}

// Block 1 returns before the grid barrier. CUDA 13's barrier waits for every block, so
// on the GPU this never finishes; the simulator fails the launch, naming block 1.
__global__ void early_exit(int* out) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  if (threadIdx.x == 0) out[blockIdx.x] = 1;
}

int main() {
  const int n = 10000;
  float h[n];
  double want = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = float(i % 97) * 0.25f;
    want += h[i];
  }
  float *in, *partial, *total;
  unsigned* bad;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&partial, 64 * sizeof(float));
  cudaMalloc(&total, sizeof(float));
  cudaMalloc(&bad, sizeof(unsigned));
  cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(bad, 0, sizeof(unsigned));
  int count = n;
  void* args[] = {&in, &count, &partial, &total, &bad};
  cudaError_t e = cudaLaunchCooperativeKernel(sum_two_phase, dim3(4, 2, 2), dim3(128), args, 0, 0);
  printf("launch: %s\n", cudaGetErrorString(e));
  float t = 0;
  unsigned b = 0;
  cudaMemcpy(&t, total, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(&b, bad, sizeof(unsigned), cudaMemcpyDeviceToHost);
  printf("sum %.1f (expected %.1f), rank mismatches %u\n", t, want, b);

  const int nb = 12, phases = 5;
  int* r;
  cudaMalloc(&r, (phases + 1) * nb * sizeof(int));
  int p = phases;
  void* rargs[] = {&r, &p};
  e = cudaLaunchCooperativeKernel(ring, dim3(nb), dim3(64), rargs, 0, 0);
  int hr[(phases + 1) * nb];
  cudaMemcpy(hr, r, sizeof(hr), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < nb; ++i) wrong += hr[phases * nb + i] != phases + (i - phases + nb) % nb;
  printf("ring: %s, %d wrong of %d\n", cudaGetErrorString(e), wrong, nb);
  void* eargs[] = {&r};
  e = cudaLaunchCooperativeKernel(early_exit, dim3(3), dim3(32), eargs, 0, 0);
  printf("early exit: %s\n", cudaGetErrorString(e));
  return 0;
}
