// Atomics as the H200 counts and times them: RED (result unused) against ATOM (result
// used), same address, k addresses, per-lane distinct addresses, shared-memory atomics,
// the 256-bin histogram pair of kernels/histogram_*.cu and an MoE top-2 token counter.
// Each launch is one pattern, in a fixed order; the program prints "launch N LABEL"
// lines so that Nsight Compute's per-launch metrics can be read pattern by pattern.
//   GPU:       bash tests/cuda/run_atomics_gpu.sh OUTDIR   (nvcc, then ncu)
//   simulator: simt exec tests/cuda/atomics_probe.cu --json FILE   (the same launches)
// Report: tests/cuda/atomics_report.py -> docs/validation/h200-atomics.md.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

// Where element i's update goes.
enum Mode : int { Same = 0, Random = 1, Consecutive = 2, Stride = 3, PerWarp = 4 };

// A 32-bit mix (lowbias32): uniform bins without an input buffer.
__device__ unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__device__ unsigned where(int mode, unsigned i, unsigned k) {
  switch (mode) {
    case Same: return 0;
    case Random: return mix(i) % k;
    case Consecutive: return i % k;
    case Stride: return i * k;
    default: return i / 32;
  }
}

// One update per thread; with `olds` the result is stored (ATOM), else unused (RED).
__global__ void probe_red_int(int* words, int mode, unsigned k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&words[where(mode, unsigned(i), k)], 1);
}
__global__ void probe_atom_int(int* words, int mode, unsigned k, int n, int* olds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) olds[i] = atomicAdd(&words[where(mode, unsigned(i), k)], 1);
}
__global__ void probe_red_float(float* words, int mode, unsigned k, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&words[where(mode, unsigned(i), k)], 1.0f);
}

// Every other operation, result unused, over 256 random words: RED or ATOM?
__global__ void probe_op(unsigned* words, int op, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned* w = &words[mix(unsigned(i)) % 256];
  const unsigned v = unsigned(i);
  switch (op) {
    case 0: atomicSub(w, 1u); break;
    case 1: atomicMin(w, v); break;
    case 2: atomicMax(w, v); break;
    case 3: atomicAnd(w, v); break;
    case 4: atomicOr(w, v); break;
    case 5: atomicXor(w, v); break;
    case 6: atomicInc(w, 1000u); break;
    case 7: atomicDec(w, 1000u); break;
    case 8: atomicExch(w, v); break;
    default: atomicCAS(w, v, v + 1); break;
  }
}

// Shared-memory atomics: a block's 256 words, one update per thread, then one
// global RED per word so that nothing is dead.
__global__ void probe_shared(int* out, int mode, unsigned k, int n) {
  __shared__ int words[256];
  words[threadIdx.x] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&words[mode == Consecutive ? threadIdx.x % k : where(mode, unsigned(i), k) % 256], 1);
  __syncthreads();
  atomicAdd(&out[threadIdx.x], words[threadIdx.x]);
}

// The histogram pair, as in kernels/histogram_global_atomic.cu and
// kernels/histogram_shared_privatized.cu (same text).
__global__ void histogram_global_atomic(const unsigned* data, int n, unsigned* bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i] % 256], 1u);
}
__global__ void histogram_shared_privatized(const unsigned* data, int n, unsigned* bins) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i] % 256], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

// An MoE router's token count: each thread picks its token's top-2 experts from the
// logits and counts them, an atomicAdd per choice (result unused).
__global__ void moe_top2_count(const float* logits, int tokens, int experts, int* counts) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= tokens) return;
  int e1 = 0, e2 = 1;
  float v1 = -1e30f, v2 = -1e30f;
  for (int e = 0; e < experts; ++e) {
    const float v = logits[t * experts + e];
    if (v > v1) {
      v2 = v1, e2 = e1;
      v1 = v, e1 = e;
    } else if (v > v2) {
      v2 = v, e2 = e;
    }
  }
  atomicAdd(&counts[e1], 1);
  atomicAdd(&counts[e2], 1);
}

namespace {

int launches = 0;
void label(const char* what, long long a = -1) {
  if (a >= 0) std::printf("launch %d %s%lld\n", ++launches, what, a);
  else std::printf("launch %d %s\n", ++launches, what);
}
int blocks(long long n) { return int((n + 255) / 256); }

template <class T>
T* zeros(long long n) {
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemset(d, 0, n * sizeof(T));
  return d;
}

}  // namespace

int main() {
  const int n = 4 << 20;  // 4 Mi updates a launch
  int* words = zeros<int>(8LL << 20);  // room for stride 2 over n (and 8 over n/4)
  int* olds = zeros<int>(n);
  float* fwords = zeros<float>(n);
  // Counting and contention, int RED: the storm, then k addresses.
  label("red_same_n", n / 4), probe_red_int<<<blocks(n / 4), 256>>>(words, Same, 1, n / 4);
  label("red_same_n", n), probe_red_int<<<blocks(n), 256>>>(words, Same, 1, n);
  for (unsigned k : {2u, 8u, 32u, 256u, 4096u, 65536u, 1u << 20})
    label("red_random_k", k), probe_red_int<<<blocks(n), 256>>>(words, Random, k, n);
  for (unsigned k : {8u, 32u, 256u}) label("red_consecutive_k", k), probe_red_int<<<blocks(n), 256>>>(words, Consecutive, k, n);
  label("red_per_warp"), probe_red_int<<<blocks(n), 256>>>(words, PerWarp, 0, n);
  label("red_stride_1"), probe_red_int<<<blocks(n), 256>>>(words, Stride, 1, n);
  label("red_stride_8"), probe_red_int<<<blocks(n / 4), 256>>>(words, Stride, 8, n / 4);
  // The same with the result used.
  label("atom_same_n", n), probe_atom_int<<<blocks(n), 256>>>(words, Same, 1, n, olds);
  label("atom_random_k", 256), probe_atom_int<<<blocks(n), 256>>>(words, Random, 256, n, olds);
  label("atom_per_warp"), probe_atom_int<<<blocks(n), 256>>>(words, PerWarp, 0, n, olds);
  label("atom_stride_1"), probe_atom_int<<<blocks(n), 256>>>(words, Stride, 1, n, olds);
  // Float RED.
  label("redf_same_n", n), probe_red_float<<<blocks(n), 256>>>(fwords, Same, 1, n);
  label("redf_random_k", 256), probe_red_float<<<blocks(n), 256>>>(fwords, Random, 256, n);
  label("redf_stride_1"), probe_red_float<<<blocks(n), 256>>>(fwords, Stride, 1, n);
  // The other operations, result unused (64 Ki threads each).
  static const char* const ops[] = {"sub", "min", "max", "and", "or", "xor", "inc", "dec", "exch", "cas"};
  for (int op = 0; op < 10; ++op) {
    char what[32];
    std::snprintf(what, sizeof what, "op_%s", ops[op]);
    label(what), probe_op<<<256, 256>>>(reinterpret_cast<unsigned*>(words), op, 1 << 16);
  }
  // Shared-memory atomics: one word per block, 256 random words, lane-distinct words.
  label("shared_same"), probe_shared<<<blocks(n), 256>>>(words, Same, 1, n);
  label("shared_random_256"), probe_shared<<<blocks(n), 256>>>(words, Random, 256, n);
  label("shared_consecutive_32"), probe_shared<<<blocks(n), 256>>>(words, Consecutive, 32, n);
  label("shared_distinct"), probe_shared<<<blocks(n), 256>>>(words, Consecutive, 256, n);
  // The histogram pair: 4 Mi uniform ints into 256 bins.
  std::vector<unsigned> host(n);
  unsigned x = 12345;
  for (unsigned& v : host) v = (x = x * 1664525u + 1013904223u) >> 8;
  unsigned* data = zeros<unsigned>(n);
  unsigned* bins = zeros<unsigned>(256);
  cudaMemcpy(data, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  label("histogram_global_atomic"), histogram_global_atomic<<<blocks(n), 256>>>(data, n, bins);
  label("histogram_shared_privatized"), histogram_shared_privatized<<<264, 256>>>(data, n, bins);
  // MoE top-2 counters: 16 Ki tokens over 8 and 64 experts.
  const int tokens = 16384;
  std::vector<float> logits(std::size_t(tokens) * 64);
  for (float& v : logits) v = float((x = x * 1664525u + 1013904223u) >> 8) / 16777216.0f;
  float* d_logits = zeros<float>(logits.size());
  cudaMemcpy(d_logits, logits.data(), logits.size() * sizeof(float), cudaMemcpyHostToDevice);
  for (int experts : {8, 64})
    label("moe_top2_experts_", experts), moe_top2_count<<<blocks(tokens), 256>>>(d_logits, tokens, experts, words);
  const cudaError_t e = cudaDeviceSynchronize();
  unsigned h[256];
  cudaMemcpy(h, bins, sizeof h, cudaMemcpyDeviceToHost);
  unsigned long long total = 0;
  for (unsigned v : h) total += v;
  std::printf("atomics_probe: %s, histogram total %llu (expected %d)\n", cudaGetErrorString(e), total, 2 * n);
  return e == cudaSuccess ? 0 : 1;
}
