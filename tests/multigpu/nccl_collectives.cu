// NCCL collectives on every rank of the program's GPUs, checked bit for bit
// against the order of NCCL's ring (sim/libs/nccl/ring_order.hpp: chunk c of an
// n-rank reduction is summed over ranks c+1, c+2, ..., c), and the 2-rank float
// all-reduce of ../shared/calibration/nccl_h200x2_allreduce.txt, whose hash two
// H200s produced. Plain CUDA + NCCL: builds with nvcc and real NCCL too (where,
// for n >= 3 ranks, NCCL's channels may start some sums elsewhere).
//
//   simt exec --gpus 4 tests/multigpu/nccl_collectives.cu
// prints "PASS <what>" or "FAIL <what>" per check and exits 1 if any failed.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("FAIL cuda %s: %s\n", #x, cudaGetErrorString(e_)); return 1; } } while (0)
#define CHECK_NCCL(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { std::printf("FAIL nccl %s: %s\n", #x, ncclGetErrorString(r_)); return 1; } } while (0)

static int failures = 0;
static void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", what);
  failures += !ok;
}

static std::uint64_t fnv1a(const void* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  return h;
}

// The calibration file's input of rank g, element i. The file's comment says 32-bit
// unsigned arithmetic, but its recorded hash is that of the 64-bit product (a size_t
// index): only this form reproduces it.
static float calibration_input(std::uint64_t i, std::uint32_t g) {
  return (float)((i * 2654435761ull + g * 97u) % 100003u) / 1024.0f - 40.0f + 0.1f * g;
}

// Values with mixed exponents, so that a sum's order shows in its last bits.
static float mixed(int rank, std::size_t i) {
  const float scale[] = {1.0f, 1e-3f, 3e4f, 0.7f, 1e-6f, 65.0f, 2e3f, 5e-2f};
  return scale[(i + rank) % 8] * (1.0f + 0.01f * (float)((i * 7 + rank * 13) % 101)) * ((i + rank) % 3 ? 1.f : -1.f);
}

struct Ranks {
  int n = 0;
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
};

template <class T>
static std::vector<T*> alloc_all(const Ranks& r, std::size_t count) {
  std::vector<T*> p(r.n);
  for (int i = 0; i < r.n; ++i) {
    cudaSetDevice(i);
    cudaMalloc(&p[i], count * sizeof(T));
  }
  return p;
}

static void sync_all(const Ranks& r) {
  for (int i = 0; i < r.n; ++i) {
    cudaSetDevice(i);
    cudaStreamSynchronize(r.streams[i]);
  }
}

// Chunk c of an n-rank ring reduction adds ranks c+1, c+2, ..., c.
static std::size_t chunk_of(std::size_t i, std::size_t count, int n) { return i / ((count + n - 1) / n); }

template <class T, class Add>
static T ring_sum(const std::vector<std::vector<T>>& in, std::size_t i, std::size_t chunk, Add add) {
  const int n = (int)in.size();
  T acc = in[(chunk + 1) % n][i];
  for (int k = 2; k <= n; ++k) acc = add(acc, in[(chunk + k) % n][i]);
  return acc;
}

static int all_reduce_float(const Ranks& r, std::size_t count) {
  std::vector<std::vector<float>> in(r.n, std::vector<float>(count));
  for (int g = 0; g < r.n; ++g)
    for (std::size_t i = 0; i < count; ++i) in[g][i] = mixed(g, i);
  auto d = alloc_all<float>(r, count);
  for (int g = 0; g < r.n; ++g) CHECK_CUDA(cudaMemcpy(d[g], in[g].data(), count * 4, cudaMemcpyHostToDevice));
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclAllReduce(d[g], d[g], count, ncclFloat, ncclSum, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  bool same = true;
  std::vector<float> out(count);
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(out.data(), d[g], count * 4, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < count; ++i) {
      const float want = ring_sum(in, i, chunk_of(i, count, r.n), [](float a, float b) { return a + b; });
      same = same && std::memcmp(&want, &out[i], 4) == 0;
    }
  }
  char what[96];
  std::snprintf(what, sizeof what, "all-reduce float sum, in place, %d ranks, ring order", r.n);
  check(same, what);
  return 0;
}

template <class H>
static int all_reduce_narrow(const Ranks& r, std::size_t count, ncclDataType_t type, const char* name,
                             float (*to)(H), H (*from)(float)) {
  std::vector<std::vector<H>> in(r.n, std::vector<H>(count));
  for (int g = 0; g < r.n; ++g)
    for (std::size_t i = 0; i < count; ++i) in[g][i] = from(mixed(g, i) * 1e-2f);
  auto d = alloc_all<H>(r, count), o = alloc_all<H>(r, count);
  for (int g = 0; g < r.n; ++g) CHECK_CUDA(cudaMemcpy(d[g], in[g].data(), count * sizeof(H), cudaMemcpyHostToDevice));
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclAllReduce(d[g], o[g], count, type, ncclSum, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  bool same = true;
  std::vector<H> out(count);
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(out.data(), o[g], count * sizeof(H), cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < count; ++i) {
      // Each step rounded to the type: exact in float first (24 bits >= 2p + 2).
      const H want = ring_sum(in, i, chunk_of(i, count, r.n), [&](H a, H b) { return from(to(a) + to(b)); });
      same = same && std::memcmp(&want, &out[i], sizeof(H)) == 0;
    }
  }
  char what[96];
  std::snprintf(what, sizeof what, "all-reduce %s sum, %d ranks, each step rounded", name, r.n);
  check(same, what);
  return 0;
}

static float half_to(__half h) { return __half2float(h); }
static __half half_from(float f) { return __float2half_rn(f); }
static float bf16_to(__nv_bfloat16 h) { return __bfloat162float(h); }
static __nv_bfloat16 bf16_from(float f) { return __float2bfloat16_rn(f); }

static int int_collectives(const Ranks& r, std::size_t count) {
  auto send = alloc_all<int>(r, count * r.n), recv = alloc_all<int>(r, count * r.n);
  std::vector<int> host(count * r.n);
  for (int g = 0; g < r.n; ++g) {
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = (int)(i * 3 + g * 1000) - 500;
    CHECK_CUDA(cudaMemcpy(send[g], host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  }
  std::vector<int> out(count * r.n);
  // all-gather: rank g's first `count` elements land at g * count everywhere.
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclAllGather(send[g], recv[g], count, ncclInt32, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  bool ok = true;
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(out.data(), recv[g], out.size() * 4, cudaMemcpyDeviceToHost));
    for (int s = 0; s < r.n; ++s)
      for (std::size_t i = 0; i < count; ++i) ok = ok && out[s * count + i] == (int)(i * 3 + s * 1000) - 500;
  }
  check(ok, "all-gather int32");
  // reduce-scatter max: rank g gets block g, the max over ranks (the last rank's).
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclReduceScatter(send[g], recv[g], count, ncclInt32, ncclMax, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  ok = true;
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(out.data(), recv[g], count * 4, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < count; ++i) ok = ok && out[i] == (int)((g * count + i) * 3 + (r.n - 1) * 1000) - 500;
  }
  check(ok, "reduce-scatter int32 max");
  // avg on integers: the sum divided by n (truncated).
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclAllReduce(send[g], recv[g], count, ncclInt32, ncclAvg, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  ok = true;
  CHECK_CUDA(cudaMemcpy(out.data(), recv[r.n - 1], count * 4, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < count; ++i) {
    long long sum = 0;
    for (int g = 0; g < r.n; ++g) sum += (int)(i * 3 + g * 1000) - 500;
    ok = ok && out[i] == (int)(sum / r.n);
  }
  check(ok, "all-reduce int32 avg");
  // broadcast from the last rank; reduce (sum) to rank 0.
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) CHECK_NCCL(ncclBroadcast(send[g], recv[g], count, ncclInt32, r.n - 1, r.comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  ok = true;
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(out.data(), recv[g], count * 4, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < count; ++i) ok = ok && out[i] == (int)(i * 3 + (r.n - 1) * 1000) - 500;
  }
  check(ok, "broadcast int32 from the last rank");
  return 0;
}

static int send_recv_ring(const Ranks& r, std::size_t count) {
  auto send = alloc_all<float>(r, count), recv = alloc_all<float>(r, count);
  std::vector<float> host(count);
  for (int g = 0; g < r.n; ++g) {
    for (std::size_t i = 0; i < count; ++i) host[i] = (float)(g * 100000 + i);
    CHECK_CUDA(cudaMemcpy(send[g], host.data(), count * 4, cudaMemcpyHostToDevice));
  }
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < r.n; ++g) {
    CHECK_NCCL(ncclSend(send[g], count, ncclFloat, (g + 1) % r.n, r.comms[g], r.streams[g]));
    CHECK_NCCL(ncclRecv(recv[g], count, ncclFloat, (g + r.n - 1) % r.n, r.comms[g], r.streams[g]));
  }
  CHECK_NCCL(ncclGroupEnd());
  sync_all(r);
  bool ok = true;
  for (int g = 0; g < r.n; ++g) {
    CHECK_CUDA(cudaMemcpy(host.data(), recv[g], count * 4, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < count; ++i) ok = ok && host[i] == (float)(((g + r.n - 1) % r.n) * 100000 + i);
  }
  check(ok, "send/recv around the ring");
  return 0;
}

// The calibration run: 2 ranks, 2^20 floats, out of place; the H200s' hash.
static int calibration_hash(const Ranks& r) {
  const std::size_t n = 1u << 20;
  std::vector<float*> in(2), out(2);
  std::vector<float> host(n);
  for (int g = 0; g < 2; ++g) {
    CHECK_CUDA(cudaSetDevice(g));
    CHECK_CUDA(cudaMalloc(&in[g], n * 4));
    CHECK_CUDA(cudaMalloc(&out[g], n * 4));
    for (std::uint32_t i = 0; i < n; ++i) host[i] = calibration_input(i, g);
    CHECK_CUDA(cudaMemcpy(in[g], host.data(), n * 4, cudaMemcpyHostToDevice));
  }
  ncclComm_t comms[2];
  CHECK_NCCL(ncclCommInitAll(comms, 2, nullptr));
  CHECK_NCCL(ncclGroupStart());
  for (int g = 0; g < 2; ++g) CHECK_NCCL(ncclAllReduce(in[g], out[g], n, ncclFloat, ncclSum, comms[g], r.streams[g]));
  CHECK_NCCL(ncclGroupEnd());
  for (int g = 0; g < 2; ++g) {
    CHECK_CUDA(cudaSetDevice(g));
    CHECK_CUDA(cudaStreamSynchronize(r.streams[g]));
    CHECK_CUDA(cudaMemcpy(host.data(), out[g], n * 4, cudaMemcpyDeviceToHost));
    std::printf("RESULT allreduce_sum_rank%d %016llx\n", g, (unsigned long long)fnv1a(host.data(), n * 4));
  }
  for (int g = 0; g < 2; ++g) ncclCommDestroy(comms[g]);
  return 0;
}

// One host thread per rank, each with its own communicator from one id.
static int thread_per_rank(int n) {
  ncclUniqueId id;
  CHECK_NCCL(ncclGetUniqueId(&id));
  std::vector<int> ok(n, 0);
  std::vector<std::thread> threads;
  for (int g = 0; g < n; ++g)
    threads.emplace_back([&, g] {
      cudaSetDevice(g);
      ncclComm_t comm;
      if (ncclCommInitRank(&comm, n, id, g) != ncclSuccess) return;
      float* d;
      cudaMalloc(&d, 256 * 4);
      std::vector<float> h(256, (float)(g + 1));
      cudaMemcpy(d, h.data(), 256 * 4, cudaMemcpyHostToDevice);
      if (ncclAllReduce(d, d, 256, ncclFloat, ncclSum, comm, nullptr) != ncclSuccess) return;
      cudaDeviceSynchronize();
      cudaMemcpy(h.data(), d, 256 * 4, cudaMemcpyDeviceToHost);
      ok[g] = h[0] == (float)(n * (n + 1) / 2) && h[255] == h[0];
      ncclCommDestroy(comm);
    });
  for (auto& t : threads) t.join();
  bool all = true;
  for (int v : ok) all = all && v;
  check(all, "one host thread per rank (ncclCommInitRank, ungrouped all-reduce)");
  return 0;
}

int main() {
  int n = 0;
  CHECK_CUDA(cudaGetDeviceCount(&n));
  std::printf("GPUS %d\n", n);
  if (n < 2) {
    std::printf("FAIL this program needs at least 2 GPUs (simt exec --gpus 2)\n");
    return 1;
  }
  Ranks r;
  r.n = n;
  r.comms.resize(n);
  r.streams.resize(n);
  CHECK_NCCL(ncclCommInitAll(r.comms.data(), n, nullptr));
  for (int g = 0; g < n; ++g) {
    CHECK_CUDA(cudaSetDevice(g));
    CHECK_CUDA(cudaStreamCreate(&r.streams[g]));
  }
  if (calibration_hash(r)) return 1;
  if (all_reduce_float(r, 1000 * n + 7)) return 1;
  if (all_reduce_narrow<__half>(r, 999, ncclHalf, "half", half_to, half_from)) return 1;
  if (all_reduce_narrow<__nv_bfloat16>(r, 999, ncclBfloat16, "bf16", bf16_to, bf16_from)) return 1;
  if (int_collectives(r, 513)) return 1;
  if (send_recv_ring(r, 4096)) return 1;
  if (thread_per_rank(n)) return 1;
  for (int g = 0; g < n; ++g) ncclCommDestroy(r.comms[g]);
  std::printf("%s: %d check%s failed\n", failures ? "FAIL" : "PASS", failures, failures == 1 ? "" : "s");
  return failures ? 1 : 0;
}
