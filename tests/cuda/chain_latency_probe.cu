// Dependent arithmetic chains on the GPU: how many cycles one iteration of a chain
// of dependent operations takes for a warp, alone and with other warps beside it.
// The kernel time model has no such term yet (docs/validation/h200-course-kernels-ii.md:
// decode attention, Welford and warp-per-row softmax are predicted 2-5x fast); these
// are the numbers it would be built from.
//   nvcc -std=c++20 --fmad=false -O3 -arch=sm_90 -o chain tests/cuda/chain_latency_probe.cu && ./chain
// Prints, per operation: cycles per iteration of one warp alone (clock64 inside the
// kernel), then ns per iteration with 1, 2, 4, 8 and 16 warps per scheduler on every
// SM (cudaEvent timing of the whole grid / iterations).
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <utility>

enum Op { Fadd, Fmul, Ffma, Div, Sqrt, Rsqrt, Expf, FastExp, OnlineSoftmax, Welford, Imad, IntDiv, UintDiv, IntDivMod,
          Count };
const char* const kNames[] = {"fadd",  "fmul",  "ffma",  "div (IEEE)", "sqrtf", "rsqrtf",
                              "expf",  "__expf", "online softmax step (m, s)", "Welford step (mean, m2)",
                              "imad", "int / int", "unsigned / unsigned", "int / and % (an index step)"};

template <int OP>
__device__ inline void step(float& a, float& b, float v, int i) {
  if constexpr (OP == Fadd) a = a + v;
  if constexpr (OP == Fmul) a = a * v;
  if constexpr (OP == Ffma) a = fmaf(a, v, 0.25f);
  if constexpr (OP == Div) a = v / (a + 1.5f);
  if constexpr (OP == Sqrt) a = sqrtf(a + v);
  if constexpr (OP == Rsqrt) a = rsqrtf(a + v);
  if constexpr (OP == Expf) a = expf(a * -0.5f);
  if constexpr (OP == FastExp) a = __expf(a * -0.5f);
  if constexpr (OP == OnlineSoftmax) {  // (m, s) over values v - a small drift, as softmax_online's online_add
    const float x = v * float(i & 7);
    if (x > a) {
      b = b * expf(a - x) + 1.0f;
      a = x;
    } else {
      b += expf(x - a);
    }
  }
  // Integer steps on a's bits, dividing by a value known only at run time (999, from the
  // kernel's argument): the strided tensors' index arithmetic (kernels/strided_tensor.cuh).
  const int d = int(v * 1000.0f);
  if constexpr (OP == Imad) a = __int_as_float(__float_as_int(a) * 3 + d);
  if constexpr (OP == IntDiv) a = __int_as_float(__float_as_int(a) / d + 12345);
  if constexpr (OP == UintDiv) a = __uint_as_float(__float_as_uint(a) / unsigned(d) + 12345u);
  if constexpr (OP == IntDivMod) {
    const int x = __float_as_int(a);
    a = __int_as_float(x / d + x % d + 7919);
  }
  if constexpr (OP == Welford) {  // mean in a, m2 in b
    const float x = v * float(i & 7), delta = x - a;
    a += delta / float(i + 1);
    b += delta * (x - a);
  }
}

template <int OP>
__global__ void chain(float* out, long long* cycles, int iters, float v) {
  float a = 0.5f + threadIdx.x * 1e-3f, b = 1.0f;
  const long long start = clock64();
  for (int i = 0; i < iters; ++i) step<OP>(a, b, v, i);
  const long long end = clock64();
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
  if (threadIdx.x == 0 && blockIdx.x == 0) *cycles = end - start;
}

template <int OP>
void measure(float* out, long long* d_cycles, int sms) {
  const int iters = 4096;
  chain<OP><<<1, 32>>>(out, d_cycles, iters, 0.999f);  // warm up
  chain<OP><<<1, 32>>>(out, d_cycles, iters, 0.999f);
  long long cycles = 0;
  cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost);
  std::printf("%-28s alone %7.2f cycles/iter |", kNames[OP], double(cycles) / iters);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int per_scheduler : {1, 2, 4, 8, 16}) {
    const int warps = 4 * per_scheduler;             // per SM: 4 schedulers
    const int blocks = warps > 32 ? warps / 32 : 1;  // per SM, at most 1024 threads a block
    const int threads = 32 * warps / blocks;
    chain<OP><<<sms * blocks, threads>>>(out, d_cycles, iters, 0.999f);
    cudaEventRecord(e0);
    chain<OP><<<sms * blocks, threads>>>(out, d_cycles, iters, 0.999f);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    std::printf(" %2d/sched %6.3f ns", per_scheduler, ms * 1e6 / iters);
  }
  std::printf("\n");
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
}

template <int... OPS>
void measure_all(float* out, long long* d_cycles, int sms, std::integer_sequence<int, OPS...>) {
  (measure<OPS>(out, d_cycles, sms), ...);
}

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  std::printf("# %s, %d SMs, %.2f GHz boost; 4096 dependent iterations per thread; "
              "ns columns: whole-grid time / iterations\n",
              p.name, p.multiProcessorCount, clock_khz / 1e6);
  float* out;
  long long* cycles;
  cudaMalloc(&out, sizeof(float) * p.multiProcessorCount * 2048);  // 16 warps per scheduler: 2048 threads an SM
  cudaMalloc(&cycles, sizeof(long long));
  measure_all(out, cycles, p.multiProcessorCount, std::make_integer_sequence<int, Count>{});
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
