// How much wall time several GPUs driven at once save over one after another, in one
// run: the same compute-heavy launches on G GPUs (G = the GPUs the program sees, at
// most 8), issued three ways:
//   sequential   one host thread, GPU 0's launches, then GPU 1's, ... (sync after each GPU)
//   threads      one host thread per GPU, all at once
//   round-robin  one host thread, launch k on every GPU in turn, then sync every GPU
// and each way's output hash per GPU (they must agree: same work, same bits). Plain
// CUDA: it runs on real GPUs too. Usage: gpus_at_once [--blocks B] [--iters I] [--launches L]
//   simt exec --gpus 4 tests/bench/gpus_at_once.cu
#include <cuda_runtime.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e = (x);                                                             \
    if (e != cudaSuccess) {                                                          \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// A chain of `iters` dependent multiply-adds per element, seeded by the step: every
// launch differs from the one before and depends on it. `way` changes nothing but the
// arguments, so that a later way's launches are not taken for an earlier way's (simtlab
// replays a launch whose arguments and inputs it has seen: docs/exec.md).
__global__ void churn(float* x, int n, int iters, int step, int way) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || way < 0) return;
  float v = x[i] + 0.001f * step;
  unsigned u = static_cast<unsigned>(i) + 7919u * static_cast<unsigned>(step);
  for (int k = 0; k < iters; ++k) {
    u = u * 1664525u + 1013904223u;
    v = v * 0.999f + static_cast<float>(u >> 20) * 0.001f;
  }
  x[i] = v;
}

struct Setup {
  int blocks = 64, threads = 256, iters = 400, launches = 4;
  int n() const { return blocks * threads; }
};

std::uint64_t fnv(const std::vector<float>& h) {
  std::uint64_t x = 1469598103934665603ull;
  const auto* p = reinterpret_cast<const unsigned char*>(h.data());
  for (std::size_t i = 0; i < h.size() * sizeof(float); ++i) x = (x ^ p[i]) * 1099511628211ull;
  return x;
}

void reset(const Setup& s, float* d) {
  std::vector<float> h(std::size_t(s.n()));
  for (int i = 0; i < s.n(); ++i) h[std::size_t(i)] = float(i % 97) * 0.01f;
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
}

std::uint64_t read_hash(const Setup& s, float* d) {
  std::vector<float> h(std::size_t(s.n()));
  CHECK(cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return fnv(h);
}

void launch(const Setup& s, float* d, int step, int way) {
  churn<<<s.blocks, s.threads>>>(d, s.n(), s.iters, step, way);
  CHECK(cudaGetLastError());
}

// Wall and CPU time (the process's, every thread's): CPU over wall is the cores used.
struct Span {
  double wall = 0, cpu = 0;
};
double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}
struct Stopwatch {
  std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
  double cpu = cpu_seconds();
  Span read() const {
    return {std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count(), cpu_seconds() - cpu};
  }
};

int main(int argc, char** argv) {
  Setup s;
  for (int a = 1; a + 1 < argc; a += 2) {
    if (!std::strcmp(argv[a], "--blocks")) s.blocks = std::atoi(argv[a + 1]);
    else if (!std::strcmp(argv[a], "--iters")) s.iters = std::atoi(argv[a + 1]);
    else if (!std::strcmp(argv[a], "--launches")) s.launches = std::atoi(argv[a + 1]);
  }
  int gpus = 0;
  CHECK(cudaGetDeviceCount(&gpus));
  if (gpus > 8) gpus = 8;
  std::vector<float*> buf(std::size_t(gpus), nullptr);
  for (int g = 0; g < gpus; ++g) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaMalloc(&buf[std::size_t(g)], std::size_t(s.n()) * sizeof(float)));
  }
  auto reset_all = [&] {
    for (int g = 0; g < gpus; ++g) {
      CHECK(cudaSetDevice(g));
      reset(s, buf[std::size_t(g)]);
    }
  };
  auto hashes = [&] {
    std::vector<std::uint64_t> h;
    for (int g = 0; g < gpus; ++g) {
      CHECK(cudaSetDevice(g));
      h.push_back(read_hash(s, buf[std::size_t(g)]));
    }
    return h;
  };
  // One GPU's launches from the calling thread.
  auto drive = [&](int g, int way) {
    CHECK(cudaSetDevice(g));
    for (int k = 0; k < s.launches; ++k) launch(s, buf[std::size_t(g)], k, way);
    CHECK(cudaDeviceSynchronize());
  };

  reset_all();
  Stopwatch t;
  for (int g = 0; g < gpus; ++g) drive(g, 0);
  const Span sequential = t.read();
  const std::vector<std::uint64_t> want = hashes();

  reset_all();
  t = Stopwatch{};
  {
    std::vector<std::thread> threads;
    for (int g = 0; g < gpus; ++g) threads.emplace_back(drive, g, 1);
    for (auto& th : threads) th.join();
  }
  const Span threaded = t.read();
  const std::vector<std::uint64_t> got_threads = hashes();

  reset_all();
  t = Stopwatch{};
  for (int k = 0; k < s.launches; ++k)
    for (int g = 0; g < gpus; ++g) {
      CHECK(cudaSetDevice(g));
      launch(s, buf[std::size_t(g)], k, 2);
    }
  for (int g = 0; g < gpus; ++g) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaDeviceSynchronize());
  }
  const Span round_robin = t.read();
  const std::vector<std::uint64_t> got_rr = hashes();

  std::printf("%d GPUs, %d launches each of %d blocks x %d threads x %d steps\n", gpus, s.launches, s.blocks,
              s.threads, s.iters);
  std::printf("%-12s %8s %8s %8s %8s\n", "issued", "wall s", "cpu s", "cores", "speedup");
  auto row = [&](const char* name, Span x) {
    std::printf("%-12s %8.2f %8.2f %8.2f %8.2f\n", name, x.wall, x.cpu, x.cpu / x.wall, sequential.wall / x.wall);
  };
  row("sequential", sequential);
  row("threads", threaded);
  row("round-robin", round_robin);
  bool same = true;
  for (int g = 0; g < gpus; ++g) {
    std::printf("HASH gpu %d %016llx %016llx %016llx\n", g, (unsigned long long)want[std::size_t(g)],
                (unsigned long long)got_threads[std::size_t(g)], (unsigned long long)got_rr[std::size_t(g)]);
    same = same && want[std::size_t(g)] == got_threads[std::size_t(g)] && want[std::size_t(g)] == got_rr[std::size_t(g)];
  }
  std::printf("%s: outputs %s\n", same ? "PASS" : "FAIL", same ? "equal every way" : "differ");
  for (float* d : buf) CHECK(cudaFree(d));
  return same ? 0 : 1;
}
