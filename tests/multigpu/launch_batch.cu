// One host thread driving every GPU in turn (`for each step: for each GPU: launch`), as
// the kernels/parallel programs do. simtlab runs such launches of different GPUs at once
// (sim/cuda/launch_batch.hpp); this checks that what the program sees is what it would
// see with one launch at a time, as on GPUs:
//   - each GPU's chain of dependent launches gives its own result (launch k reads what
//     launch k-1 of the same GPU wrote), read back with cudaMemcpy;
//   - a launch the GPU refuses (1025 threads a block) is reported by cudaGetLastError
//     right after it, amid launches of other GPUs, and recorded on its GPU;
//   - with --fault, an out-of-bounds write on the last GPU: cudaGetLastError right after
//     the launch may say nothing yet (the kernel runs on), the other GPUs' results are
//     right, and the faulting GPU's cudaDeviceSynchronize reports the illegal address;
//   - the launches made after the last runtime call still run (the report lists them).
// Plain CUDA: it builds with nvcc and runs on real GPUs. Usage: launch_batch [--fault]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int kN = 4096;
constexpr int kSteps = 6;

__global__ void step(float* x, int n, int k, int gpu) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * 0.5f + float(k + 1) * float(gpu + 1) + float(i % 7);
}

__global__ void write_past(float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) x[n + (1 << 24)] = 1.0f;  // far past the allocation
}

float expected(int i, int gpu) {
  float v = 0.0f;
  for (int k = 0; k < kSteps; ++k) v = v * 0.5f + float(k + 1) * float(gpu + 1) + float(i % 7);
  return v;
}

int failures = 0;
void check(bool ok, const char* what, int gpu) {
  std::printf("%s: %s (GPU %d)\n", ok ? "ok" : "FAILED", what, gpu);
  failures += !ok;
}

}  // namespace

int main(int argc, char** argv) {
  const bool fault = argc > 1 && !std::strcmp(argv[1], "--fault");
  int gpus = 0;
  cudaGetDeviceCount(&gpus);
  std::vector<float*> x(static_cast<std::size_t>(gpus));
  for (int g = 0; g < gpus; ++g) {
    cudaSetDevice(g);
    cudaMalloc(&x[static_cast<std::size_t>(g)], kN * sizeof(float));
    cudaMemset(x[static_cast<std::size_t>(g)], 0, kN * sizeof(float));
  }
  for (int k = 0; k < kSteps; ++k)
    for (int g = 0; g < gpus; ++g) {
      cudaSetDevice(g);
      step<<<kN / 256, 256>>>(x[static_cast<std::size_t>(g)], kN, k, g);
      if (k == 2 && g == gpus - 1) {
        step<<<1, 1025>>>(x[static_cast<std::size_t>(g)], kN, k, g);  // more threads than a block may have
        const cudaError_t e = cudaGetLastError();
        // CUDA 13 on the H200: cudaErrorInvalidValue (tests/cuda/launch_errors_h200.txt).
        check(e == cudaErrorInvalidValue, "a refused configuration is reported at once", g);
        if (fault) {
          write_past<<<1, 32>>>(x[static_cast<std::size_t>(g)], kN);
          std::printf("cudaGetLastError after the faulting launch: %s\n", cudaGetErrorName(cudaGetLastError()));
        }
      }
    }
  std::vector<float> got(kN);
  for (int g = 0; g < gpus; ++g) {
    cudaSetDevice(g);
    const bool faulted = fault && g == gpus - 1;
    const cudaError_t e = cudaDeviceSynchronize();
    if (faulted) {
      check(e == cudaErrorIllegalAddress, "the fault is reported by the faulting GPU's synchronisation", g);
      continue;
    }
    check(e == cudaSuccess, "synchronised", g);
    cudaMemcpy(got.data(), x[static_cast<std::size_t>(g)], kN * sizeof(float), cudaMemcpyDeviceToHost);
    bool right = true;
    for (int i = 0; i < kN; ++i) right = right && got[static_cast<std::size_t>(i)] == expected(i, g);
    check(right, "its chain of launches gives its own result", g);
  }
  // Launches after the last runtime call: nothing reads them, but they run and are counted.
  for (int g = 0; g < gpus; ++g) {
    cudaSetDevice(g);
    if (!(fault && g == gpus - 1)) step<<<kN / 256, 256>>>(x[static_cast<std::size_t>(g)], kN, kSteps, g);
  }
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
