// One host thread per GPU, all launching at once (simtlab runs their blocks at the same
// time: docs/multi-gpu.md, "Host threads"): a tiled transpose through static __shared__
// memory with barriers, a block reduction, and float atomics into a histogram, each
// thread on its own GPU with its own data. Prints each GPU's output hash; run with
// SIMT_OPTIONS=concurrent_gpus=0 the hashes, counters and diagnostics must be the same.
// With --race, GPU 1 also runs a kernel whose blocks race on one word (reported, the
// others unaffected). Exits 0 when every GPU's results match the host's.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

constexpr int kTile = 32;

__global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += blockDim.y)
    if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int tx = blockIdx.y * kTile + threadIdx.x, ty = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += blockDim.y)
    if (tx < n && ty + j < n) out[(ty + j) * n + tx] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void block_sums(const float* in, float* out, int n) {
  __shared__ float part[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = part[0];
}

__global__ void histogram(const float* in, unsigned* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[static_cast<unsigned>(in[i]) % 64u], 1u);
}

__global__ void racy(int* word) {
  if (threadIdx.x == 0) *word += 1;  // every block, no atomic: a race between blocks
}

std::uint64_t fnv(const void* data, std::size_t bytes, std::uint64_t x = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) x = (x ^ p[i]) * 1099511628211ull;
  return x;
}

struct Result {
  std::uint64_t hash = 0;
  bool right = false;
};

Result drive(int gpu, int n, bool race) {
  cudaSetDevice(gpu);
  const int elems = n * n;
  std::vector<float> h(static_cast<std::size_t>(elems));
  for (int i = 0; i < elems; ++i) h[std::size_t(i)] = float((i * (gpu + 3)) % 101);
  float *in, *out, *sums;
  unsigned* bins;
  cudaMalloc(&in, elems * sizeof(float));
  cudaMalloc(&out, elems * sizeof(float));
  const int blocks = (elems + 255) / 256;
  cudaMalloc(&sums, blocks * sizeof(float));
  cudaMalloc(&bins, 64 * sizeof(unsigned));
  cudaMemcpy(in, h.data(), elems * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 64 * sizeof(unsigned));
  transpose<<<dim3(n / kTile, n / kTile), dim3(kTile, 8)>>>(in, out, n);
  block_sums<<<blocks, 256>>>(out, sums, elems);
  histogram<<<blocks, 256>>>(in, bins, elems);
  if (race) {
    int* word;
    cudaMalloc(&word, sizeof(int));
    cudaMemset(word, 0, sizeof(int));
    racy<<<4, 32>>>(word);
    cudaDeviceSynchronize();
    cudaGetLastError();  // the race fails this launch; the others' results stand
    cudaFree(word);
  }
  std::vector<float> t(h.size()), s(static_cast<std::size_t>(blocks));
  std::vector<unsigned> b(64);
  cudaMemcpy(t.data(), out, elems * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(s.data(), sums, blocks * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(b.data(), bins, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  Result r;
  r.right = true;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) r.right = r.right && t[std::size_t(x * n + y)] == h[std::size_t(y * n + x)];
  std::vector<unsigned> want(64, 0);
  for (float v : h) ++want[static_cast<unsigned>(v) % 64u];
  r.right = r.right && b == want;
  r.hash = fnv(s.data(), s.size() * sizeof(float), fnv(t.data(), t.size() * sizeof(float), fnv(b.data(), 256)));
  cudaFree(in), cudaFree(out), cudaFree(sums), cudaFree(bins);
  return r;
}

int main(int argc, char** argv) {
  const bool race = argc > 1 && !std::strcmp(argv[1], "--race");
  int gpus = 0;
  cudaGetDeviceCount(&gpus);
  std::vector<Result> results(static_cast<std::size_t>(gpus));
  std::vector<std::thread> threads;
  for (int g = 0; g < gpus; ++g)
    threads.emplace_back([&, g] { results[std::size_t(g)] = drive(g, 128 + 32 * g, race && g == 1); });
  for (auto& t : threads) t.join();
  bool all = true;
  for (int g = 0; g < gpus; ++g) {
    std::printf("GPU %d hash %016llx %s\n", g, (unsigned long long)results[std::size_t(g)].hash,
                results[std::size_t(g)].right ? "right" : "WRONG");
    all = all && results[std::size_t(g)].right;
  }
  return all ? 0 : 1;
}
