// What a load costs at the start of a launch, when Nsight Compute has flushed the
// caches before it (its default --cache-control all, under which every launch of the
// time-model validation set is timed) and when it has not (--cache-control none):
// the fixed costs of short kernels that do work (docs/validation/h200-short-kernels.md).
// One program, a fixed list of launches; bash tests/cuda/run_cold_start_probe_gpu.sh
// times it both ways.
//
//   write_index  each thread stores its index through a pointer parameter: the
//                parameter's first read (the constant bank), no load from memory;
//                beside `empty` of the short-kernel probe
//   code<N>      N dependent FMUL+FADD pairs in straight-line code (32 N bytes of
//                SASS), run once: what fetching cold instructions costs beside the
//                chain's own 2 N x 4 clocks
//   chase        one thread follows a chain of dependent loads, one 128-byte line a
//                hop: within one 2 MiB page (L2 or DRAM latency per hop) or a page
//                apart (plus a TLB miss per hop); 1, 8 and 32 hops, so the slope is
//                the latency of one hop and the intercept the launch. Each chain is
//                new memory chased twice: the second launch finds its pages' address
//                translations warm (and, without the flush, its lines in L2)
//   all_chase    every thread of a grid over all SMs follows the same chain: one
//                line requested by every warp at once, hop after hop
//   param_loads  a map over 64 Ki elements whose index is computed from a shape
//                read from global memory (the course's strided map): a few
//                dependent loads of lines every warp shares, then one's own
// Plain CUDA.
#include "probe_check.cuh"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void write_index(unsigned* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = i;
}

template <int kPairs>
__global__ void code(const float* in, float* out) {
  float x = in[threadIdx.x];
#pragma unroll
  for (int k = 0; k < kPairs; ++k) x = x * 1.0001f + 0.5f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

__global__ void chase(const unsigned* next, unsigned* out, int hops) {
  unsigned at = 0;
  for (int h = 0; h < hops; ++h) at = next[at];
  out[blockIdx.x * blockDim.x + threadIdx.x] = at;
}

__global__ void param_loads(const int* shape, const float* in, float* out, int dims) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int pos = 0, stride = 1;
  for (int d = dims - 1; d >= 0; --d) {
    const int n = shape[d];
    pos += (i % n) * stride;
    stride *= shape[dims + d];
    i /= n;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[pos] * 2.0f;
}

namespace {

// A chain of `hops` + 1 words, `stride_words` apart: word k holds the index of k + 1.
unsigned* chain(long long stride_words, int hops) {
  const long long n = stride_words * (hops + 1);
  std::vector<unsigned> host(n, 0u);
  for (int k = 0; k < hops; ++k) host[k * stride_words] = static_cast<unsigned>((k + 1) * stride_words);
  unsigned* d = nullptr;
  cudaMalloc(&d, n * sizeof(unsigned));
  cudaMemcpy(d, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  return d;
}

}  // namespace

int main() {
  unsigned* out = nullptr;
  cudaMalloc(&out, (132 * 8 * 256 + 65536) * sizeof(unsigned));
  for (int blocks : {1, 132, 528}) {
    write_index<<<blocks, 256>>>(out);
    check("write_index");
  }
  float* ones = nullptr;
  cudaMalloc(&ones, 256 * sizeof(float));
  cudaMemset(ones, 0, 256 * sizeof(float));
  for (int blocks : {1, 132}) {
    code<64><<<blocks, 32>>>(ones, reinterpret_cast<float*>(out));
    code<512><<<blocks, 32>>>(ones, reinterpret_cast<float*>(out));
    code<2048><<<blocks, 32>>>(ones, reinterpret_cast<float*>(out));
    check("code");
  }
  const int hop_counts[] = {1, 8, 32};
  // 128-byte lines 4 KiB apart (one 2 MiB page for 32 hops), then lines 2 MiB + 128 B
  // apart (a page a hop).
  const long long strides[] = {1024, (2LL << 20) / 4 + 32};
  for (long long stride : strides)
    for (int hops : hop_counts) {
      unsigned* next = chain(stride, hops);
      for (int again = 0; again < 2; ++again) {
        chase<<<1, 1>>>(next, out, hops);
        check("chase");
      }
      cudaFree(next);
    }
  for (int hops : hop_counts) {
    unsigned* next = chain(1024, hops);
    for (int again = 0; again < 2; ++again) {
      chase<<<132 * 4, 256>>>(next, out, hops);
      check("all_chase");
    }
    cudaFree(next);
  }
  // The strided map of 16 x 64 x 64 floats over 256 blocks of 256 threads: shape and
  // strides in one line read by every thread, then its own element.
  const int meta[] = {16, 64, 64, 4096, 64, 1};
  int* shape = nullptr;
  cudaMalloc(&shape, sizeof meta);
  cudaMemcpy(shape, meta, sizeof meta, cudaMemcpyHostToDevice);
  std::vector<float> host(65536, 1.5f);
  float* in = nullptr;
  cudaMalloc(&in, host.size() * sizeof(float));
  cudaMemcpy(in, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice);
  for (int blocks : {1, 132, 256}) {
    param_loads<<<blocks, 256>>>(shape, in, reinterpret_cast<float*>(out), 3);
    check("param_loads");
  }
  unsigned first = 0;
  cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost);
  std::printf("cold_start_probe: %d launches, out[0] %u\n", 3 + 6 + 2 * 3 * 2 + 3 * 2 + 3, first);
  return 0;
}
