// Runs the time-model microbenchmarks (tests/cuda/time_micro.cuh) once each, in the
// fixed order tests/cuda/calibrate_time_model.py (MICRO_LAUNCHES) expects, so that
// Nsight Compute times every launch:  bash tests/cuda/run_time_micro_gpu.sh OUTDIR
#include "tests/cuda/time_micro.cuh"

#include <cstdio>
#include <vector>

namespace {

constexpr int kSms = 132;  // H200; the sizes below fill it (other GPUs: edit and refit)

template <class T>
T* zeros(long long n) {
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemset(d, 0, n * sizeof(T));
  return d;
}

// Rings for micro_global_chain: for each size in {64, lines}, a ring visiting that
// many 128-byte lines, one int per line, hopping 17 lines at a time (an odd step
// over a power of two visits every line). The rings lie one after the other.
constexpr int kWordsPerLine = 32;

int* ring_of_lines(int lines) {
  std::vector<int> host(std::size_t(64 + lines) * kWordsPerLine, 0);
  for (int base : {0, 64}) {
    const int n = base == 0 ? 64 : lines;
    for (int l = 0; l < n; ++l) host[std::size_t(base + l) * kWordsPerLine] = ((l + 17) % n) * kWordsPerLine;
  }
  int* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(int));
  cudaMemcpy(d, host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice);
  return d;
}

// The ring of `lines` lines inside ring_of_lines' buffer (indices are relative to it).
const int* ring_at(const int* rings, int lines) { return lines == 64 ? rings : rings + 64 * kWordsPerLine; }

int blocks_for(long long n, int threads) { return static_cast<int>((n + threads - 1) / threads); }

}  // namespace

int main() {
  const long long big4 = 16LL << 20, small4 = 4LL << 20;  // float4s: 256 MB and 64 MB each way
  float4* in = zeros<float4>(big4);
  float4* out = zeros<float4>(big4);
  float* scattered = zeros<float>((4LL << 20) * 32);
  float* sink = zeros<float>(kSms * 8 * 1024);
  int* ints = zeros<int>(64);
  for (int i = 0; i < 3; ++i) micro_empty<<<1, 32>>>();
  for (long long n4 : {small4, big4}) micro_copy<<<blocks_for(n4, 256), 256>>>(in, out, int(n4));
  for (int n : {1 << 20, 4 << 20}) micro_store_scattered<<<blocks_for(n, 256), 256>>>(scattered, n);
  for (int stride : {1, 32}) micro_shared_stride<<<kSms * 8, 256>>>(sink, stride, 256);
  for (int reps : {1024, 4096}) micro_shared_chain<<<1, 32>>>(ints, reps);
  for (int reps : {1024, 4096}) micro_shuffle_chain<<<1, 32>>>(ints, reps);
  for (int reps : {1024, 4096}) micro_barrier_chain<<<1, 256>>>(ints, reps);
  for (int blocks : {1024, 4096}) micro_atomic_storm<<<blocks, 256>>>(sink);
  for (int blocks : {2 * kSms, 2 * kSms + 1}) micro_wave<<<blocks, 1024>>>(sink, 4096);
  // Added after the first calibration (the launches above keep their order).
  unsigned* words = zeros<unsigned>(kSms * 8 * 256);
  float* windows = zeros<float>(8 * 32768);
  for (int reps : {256, 1024}) micro_int_issue<<<kSms * 8, 256>>>(words, reps);
  for (int reps : {64, 256}) micro_int_div<<<kSms * 8, 256>>>(reinterpret_cast<int*>(words), 7, reps);
  for (int window : {1024, 32768}) micro_l1_reuse<<<kSms * 8, 256>>>(windows, sink, window, 512);
  for (int reps : {4, 16}) micro_store_scattered_l2<<<kSms * 8, 256>>>(scattered, 128 * 1024, reps);
  // Added for the load chain's round (after all the launches above).
  const int ring_lines = 8192;
  int* ring = ring_of_lines(ring_lines);
  for (int lines : {64, ring_lines})
    for (int reps : {2 * ring_lines, 8 * ring_lines}) micro_global_chain<<<1, 1>>>(ring_at(ring, lines), ints, reps);
  for (int lines : {64, ring_lines})  // `windows` holds 8192 lines of 32 floats
    for (int reps : {2 * ring_lines, 8 * ring_lines}) micro_load_loop<<<1, 32>>>(windows, sink, lines, reps);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("time_micro: %s\n", cudaGetErrorString(e));
  cudaFree(in);
  cudaFree(out);
  cudaFree(scattered);
  cudaFree(sink);
  cudaFree(ints);
  cudaFree(words);
  cudaFree(windows);
  cudaFree(ring);
  return e == cudaSuccess ? 0 : 1;
}
