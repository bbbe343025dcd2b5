// How fast L1 serves a warp whose lanes each walk their own row (the thread-per-row
// softmax, LayerNorm and matmul_naive's A): every load touches 32 lines, one sector
// each, and seven of a lane's eight reads of a sector hit in L1 while the warp's 32
// lines stay there. One block per SM of 1-32 warps (two blocks of 32 for 64 warps),
// each thread summing a row of 1,024 floats: the warps' lines in use grow from 4 KiB
// to 256 KiB, past what L1 holds, so the launches show the rate of hits and what
// eviction costs on top (the kernel time model's l1 term, docs/validation/
// h200-short-kernels.md). Other row strides show whether the lines' addresses
// matter: 2,048 floats, and strides that are not a power of two. Plain CUDA; bash
// tests/cuda/run_l1_row_walk_gpu.sh times each launch with ncu and reads L1's hit
// rate and wavefronts beside it.
#include "probe_check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void row_walk(const float* rows, float* out, int cols, int stride, unsigned row_mask) {
  const unsigned row = (blockIdx.x * blockDim.x + threadIdx.x) & row_mask;
  const float* p = rows + std::size_t(row) * stride;
  float sum = 0.f;
  for (int c = 0; c < cols; ++c) sum += p[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int cols = 1024;
  const unsigned rows = 1u << 15;  // 32 Ki rows: each SM's rows are its own
  float *d_rows, *out;
  cudaMalloc(&d_rows, std::size_t(rows) * 2 * cols * sizeof(float));
  cudaMalloc(&out, std::size_t(sms) * 2048 * sizeof(float));
  cudaMemset(d_rows, 0, std::size_t(rows) * 2 * cols * sizeof(float));
  int launches = 0;
  for (int warps : {1, 2, 4, 8, 16, 32}) {
    row_walk<<<sms, warps * 32>>>(d_rows, out, cols, cols, rows - 1);
    ++launches;
  }
  row_walk<<<2 * sms, 1024>>>(d_rows, out, cols, cols, rows - 1);  // 64 warps an SM
  for (int warps : {8, 32}) row_walk<<<sms, warps * 32>>>(d_rows, out, cols, 2 * cols, rows - 1);
  launches += 3;
  // Row strides that are not a power of two (8 warps an SM): 1,000 floats (the naive
  // softmax's rows: the lanes' sectors at all four places in their lines), 1,056 (33
  // lines: neighbouring lanes' lines alternate odd and even, one place), 1,088 (34
  // lines, one place), 1,040 (32.5 lines: two places), 1,032 (32.25 lines: four
  // places, lines mostly of one parity).
  for (int stride : {1000, 1056, 1088, 1040, 1032}) {
    row_walk<<<sms, 256>>>(d_rows, out, cols, stride, rows - 1);
    ++launches;
  }
  // Lanes sharing lines (8 warps an SM): rows 8 floats apart (a line holds four
  // lanes' sectors, one at each place: 8 lines a request), 16 (two lanes' sectors at
  // places 0 and 2: 16 lines, the MoE gate's 64-byte rows) and 48 (192 bytes: 24
  // lines, one or two sectors each).
  for (int stride : {8, 16, 48}) {
    row_walk<<<sms, 256>>>(d_rows, out, cols, stride, rows - 1);
    ++launches;
  }
  check("row_walk");
  std::printf("l1_row_walk_probe: %d launches on %d SMs\n", launches, sms);
  return 0;
}
