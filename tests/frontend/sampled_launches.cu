// Launches long enough to be sampled under a tiny budget (SIMT_OPTIONS's sample_probe,
// sample_budget): uncounted blocks run each kernel's plain twin, so the output
// must equal an exact run's bit for bit — a uniform kernel, one with a barrier and
// shared memory, an in-place update repeated three times (its repeats change
// memory, so they are never skipped), and a histogram of shared and global atomics
// (an uncounted block's plain stores are not seen, so its shared atomics must not
// be checked for reading unwritten words). Last, a ramp: block b adds b / 2 times, as
// a causal attention's later rows are longer; its sampled FADD count must come close
// to the exact one (the counted blocks are spread over the grid, not its start).
// And a table every block reads whole: its DRAM reads are the table's bytes once,
// however many blocks there are, and the sampled estimate must not multiply them.
// And rows zeroed by a loop clang makes a memset of, then accumulated into: reading
// them after the memset is no DRAM read, in counted and in uncounted blocks alike.
#include <cstdio>

constexpr int kBlocks = 4096, kThreads = 256, kN = kBlocks * kThreads;

__global__ void scale(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i] * 3.0f + 1.0f;
}

__global__ void reverse_blocks(const float* x, float* y) {
  __shared__ float s[kThreads];
  const int base = blockIdx.x * kThreads;
  s[threadIdx.x] = x[base + threadIdx.x];
  __syncthreads();
  y[base + threadIdx.x] = s[kThreads - 1 - threadIdx.x] + 0.5f;
}

__global__ void halve(float* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = x[i] * 0.5f + 1.0f;
}

__global__ void histogram(const float* x, unsigned* bins) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&local[int(x[blockIdx.x * blockDim.x + threadIdx.x]) % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void ramp(float* out) {
  float acc = 0.0f;
  for (unsigned i = 0; i < blockIdx.x / 2; ++i) acc += 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void shared_table(const float* table, float* out) {
  float acc = 0.0f;
  for (int k = 0; k < 16; ++k) acc += table[k * kThreads + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void zero_then_accumulate(const float* x, float* rows) {
  float* row = rows + (blockIdx.x * blockDim.x + threadIdx.x) % (kN / 4) * 4;
  for (int k = 0; k < 4; ++k) row[k] = 0.0f;
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 4; ++k) row[k] += x[(blockIdx.x * blockDim.x + threadIdx.x + r) % kN];
}

double sum(const float* d) {
  static float h[kN];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < kN; ++i) s += h[i] * double(i % 7 + 1);
  return s;
}

int main() {
  static float h[kN];
  for (int i = 0; i < kN; ++i) h[i] = float(i % 1000) / 16.0f;
  float *x, *y, *z;
  cudaMalloc(&x, sizeof h);
  cudaMalloc(&y, sizeof h);
  cudaMalloc(&z, sizeof h);
  cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
  scale<<<kBlocks, kThreads>>>(x, y);
  reverse_blocks<<<kBlocks, kThreads>>>(y, z);
  for (int r = 0; r < 3; ++r) halve<<<kBlocks, kThreads>>>(z);
  unsigned* bins;
  cudaMalloc(&bins, 16 * sizeof(unsigned));
  cudaMemset(bins, 0, 16 * sizeof(unsigned));
  histogram<<<kBlocks, kThreads>>>(x, bins);
  unsigned hb[16];
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  ramp<<<729, 64>>>(y);
  float last;
  cudaMemcpy(&last, y + 729 * 64 - 1, sizeof last, cudaMemcpyDeviceToHost);
  shared_table<<<kBlocks, kThreads>>>(x, z);
  zero_then_accumulate<<<kBlocks / 4, kThreads>>>(x, y);
  printf("y %.1f z %.1f bins %u %u %u ramp %.1f table %.1f\n", sum(y), sum(z), hb[0], hb[7], hb[15], last, sum(z));
}
