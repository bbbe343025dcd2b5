// One process per rank, as llm.c's multi-GPU training runs: MPI starts the
// processes, rank 0 makes the ncclUniqueId and MPI_Bcast hands it to the others,
// each process drives one GPU (LOCAL_RANK) through ncclCommInitRank. Every rank
// checks its own results against NCCL's ring order, computed on the host from
// every rank's inputs (sim/libs/nccl/ring_order.hpp: chunk c of an n-rank
// reduction adds ranks c+1, c+2, ..., c), and prints the 2-rank float all-reduce
// hash of ../shared/calibration/nccl_h200x2_allreduce.txt. Plain CUDA + MPI + NCCL:
//
//   simt exec --ranks 3 tests/multigpu/mpi_ranks.cu
//   nvcc -std=c++20 -arch=sm_90 mpi_ranks.cu $(mpicxx --showme:compile) \
//        $(mpicxx --showme:link) -lnccl -o mpi_ranks && mpirun -np 2 ./mpi_ranks
//
// Rank 0 prints "PASS: 0 checks failed" when every rank passed; exit 1 otherwise.
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static int g_rank = 0, g_size = 1, g_failures = 0;

#define CHECK_CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("[rank %d] FAIL %s: %s\n", g_rank, #x, cudaGetErrorString(e_)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)
#define CHECK_NCCL(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { std::printf("[rank %d] FAIL %s: %s\n", g_rank, #x, ncclGetErrorString(r_)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

static void check(bool ok, const char* what) {
  std::printf("[rank %d] %s %s\n", g_rank, ok ? "PASS" : "FAIL", what);
  g_failures += !ok;
}

static std::uint64_t fnv1a(const void* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < n; ++i) h = (h ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
  return h;
}

// Values with mixed exponents, so that a sum's order shows in its last bits.
static float mixed(int rank, std::size_t i) {
  const float scale[] = {1.0f, 1e-3f, 3e4f, 0.7f, 1e-6f, 65.0f, 2e3f, 5e-2f};
  return scale[(i + rank) % 8] * (1.0f + 0.01f * (float)((i * 7 + rank * 13) % 101)) * ((i + rank) % 3 ? 1.f : -1.f);
}

// The calibration file's input of rank g (the 64-bit product reproduces its hash).
static float calibration_input(std::uint64_t i, std::uint32_t g) {
  return (float)((i * 2654435761ull + g * 97u) % 100003u) / 1024.0f - 40.0f + 0.1f * g;
}

// Element i of an all-reduce of `count` falls in chunk i / ceil(count / n); chunk c
// is summed over ranks c+1, c+2, ..., c.
static float ring_sum(std::size_t i, std::size_t count, std::size_t offset) {
  const std::size_t per = (count + g_size - 1) / g_size;
  const int c = (int)(i / per);
  float acc = mixed((c + 1) % g_size, offset + i);
  for (int k = 2; k <= g_size; ++k) acc += mixed((c + k) % g_size, offset + i);
  return acc;
}

template <class T>
static T* device_copy(const std::vector<T>& v) {
  T* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, v.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}

template <class T>
static std::vector<T> host_copy(const T* p, std::size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

static void all_reduce(ncclComm_t comm, cudaStream_t s) {
  const std::size_t count = 1001;
  std::vector<float> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = mixed(g_rank, i);
  float* d = device_copy(in);
  CHECK_NCCL(ncclAllReduce(d, d, count, ncclFloat, ncclSum, comm, s));
  const std::vector<float> out = host_copy(d, count);
  bool ok = true;
  for (std::size_t i = 0; i < count; ++i) {
    const float want = ring_sum(i, count, 0);
    ok &= std::memcmp(&out[i], &want, 4) == 0;
  }
  check(ok, "all-reduce float sum in place, bit for bit in ring order");
  cudaFree(d);
}

static void reduce_scatter(ncclComm_t comm, cudaStream_t s) {
  const std::size_t per = 257;
  std::vector<float> in(per * g_size);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = mixed(g_rank, i);
  float* d = device_copy(in);
  float* out_d = nullptr;
  CHECK_CUDA(cudaMalloc(&out_d, per * sizeof(float)));
  CHECK_NCCL(ncclReduceScatter(d, out_d, per, ncclFloat, ncclSum, comm, s));
  const std::vector<float> out = host_copy(out_d, per);
  bool ok = true;
  for (std::size_t i = 0; i < per; ++i) {  // this rank's chunk, summed from rank+1 around to rank
    float acc = mixed((g_rank + 1) % g_size, g_rank * per + i);
    for (int k = 2; k <= g_size; ++k) acc += mixed((g_rank + k) % g_size, g_rank * per + i);
    ok &= std::memcmp(&out[i], &acc, 4) == 0;
  }
  check(ok, "reduce-scatter float sum, bit for bit in ring order");
  cudaFree(d);
  cudaFree(out_d);
}

static void all_gather_broadcast_reduce(ncclComm_t comm, cudaStream_t s) {
  const std::size_t per = 100;
  std::vector<int> mine(per);
  for (std::size_t i = 0; i < per; ++i) mine[i] = g_rank * 1000 + (int)i;
  int* d = device_copy(mine);
  int* all = nullptr;
  CHECK_CUDA(cudaMalloc(&all, per * g_size * sizeof(int)));
  CHECK_NCCL(ncclAllGather(d, all, per, ncclInt32, comm, s));
  std::vector<int> got = host_copy(all, per * g_size);
  bool ok = true;
  for (int r = 0; r < g_size; ++r)
    for (std::size_t i = 0; i < per; ++i) ok &= got[r * per + i] == r * 1000 + (int)i;
  check(ok, "all-gather int32");

  const int root = g_size - 1;
  CHECK_NCCL(ncclBroadcast(d, d, per, ncclInt32, root, comm, s));
  got = host_copy(d, per);
  ok = true;
  for (std::size_t i = 0; i < per; ++i) ok &= got[i] == root * 1000 + (int)i;
  check(ok, "broadcast int32 from the last rank");

  for (std::size_t i = 0; i < per; ++i) mine[i] = (int)((i * 31 + g_rank * 17) % 97);
  CHECK_CUDA(cudaMemcpy(d, mine.data(), per * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_NCCL(ncclReduce(d, all, per, ncclInt32, ncclMax, 0, comm, s));
  if (g_rank == 0) {
    got = host_copy(all, per);
    ok = true;
    for (std::size_t i = 0; i < per; ++i) {
      int want = 0;
      for (int r = 0; r < g_size; ++r) want = std::max(want, (int)((i * 31 + r * 17) % 97));
      ok &= got[i] == want;
    }
    check(ok, "reduce int32 max to rank 0");
  }
  cudaFree(d);
  cudaFree(all);
}

// Grouped sends and receives: to the next rank around the ring, and to every rank
// (all-to-all), receives posted before sends on purpose.
static void point_to_point(ncclComm_t comm, cudaStream_t s) {
  const std::size_t per = 64;
  std::vector<float> in(per * g_size);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = (float)(g_rank * 10000 + i);
  float* send = device_copy(in);
  float* recv = nullptr;
  CHECK_CUDA(cudaMalloc(&recv, per * g_size * sizeof(float)));
  CHECK_NCCL(ncclGroupStart());
  for (int p = 0; p < g_size; ++p) CHECK_NCCL(ncclRecv(recv + p * per, per, ncclFloat, p, comm, s));
  for (int p = 0; p < g_size; ++p) CHECK_NCCL(ncclSend(send + p * per, per, ncclFloat, p, comm, s));
  CHECK_NCCL(ncclGroupEnd());
  std::vector<float> got = host_copy(recv, per * g_size);
  bool ok = true;
  for (int p = 0; p < g_size; ++p)
    for (std::size_t i = 0; i < per; ++i) ok &= got[p * per + i] == (float)(p * 10000 + g_rank * per + i);
  check(ok, "all-to-all from grouped ncclSend/ncclRecv (receives posted first)");

  const int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
  CHECK_NCCL(ncclGroupStart());
  CHECK_NCCL(ncclSend(send, per, ncclFloat, next, comm, s));
  CHECK_NCCL(ncclRecv(recv, per, ncclFloat, prev, comm, s));
  CHECK_NCCL(ncclGroupEnd());
  got = host_copy(recv, per);
  ok = true;
  for (std::size_t i = 0; i < per; ++i) ok &= got[i] == (float)(prev * 10000 + i);
  check(ok, "send to the next rank, receive from the previous");
  cudaFree(send);
  cudaFree(recv);
}

// The 2-rank calibration all-reduce of docs/validation/data/nccl_h200x2_allreduce.txt
// (2^20 floats; two H200s hashed its output): the hash, and the time on the clock.
static void calibration(ncclComm_t comm, cudaStream_t s, std::size_t count) {
  std::vector<float> in(count);
  for (std::size_t i = 0; i < count; ++i) in[i] = calibration_input(i, (std::uint32_t)g_rank);
  float* d = device_copy(in);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a, s);
  CHECK_NCCL(ncclAllReduce(d, d, count, ncclFloat, ncclSum, comm, s));
  cudaEventRecord(b, s);
  const std::vector<float> out = host_copy(d, count);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  std::printf("[rank %d] RESULT allreduce_sum_rank%d %016llx  (%zu floats, %.1f us)\n", g_rank, g_rank,
              (unsigned long long)fnv1a(out.data(), count * sizeof(float)), count, ms * 1e3);
  cudaFree(d);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);

  // The launcher's variables, as torchrun-style programs read them.
  const char* rank_env = std::getenv("RANK");
  const char* size_env = std::getenv("WORLD_SIZE");
  const char* local_env = std::getenv("LOCAL_RANK");
  check(rank_env && std::atoi(rank_env) == g_rank && size_env && std::atoi(size_env) == g_size && local_env,
        "RANK, WORLD_SIZE and LOCAL_RANK are set");
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));
  const int device = (local_env ? std::atoi(local_env) : g_rank) % devices;
  CHECK_CUDA(cudaSetDevice(device));
  std::printf("[rank %d of %d] GPU %d of %d\n", g_rank, g_size, device, devices);

  ncclUniqueId id;
  if (g_rank == 0) CHECK_NCCL(ncclGetUniqueId(&id));
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm;
  CHECK_NCCL(ncclCommInitRank(&comm, g_size, id, g_rank));
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));

  all_reduce(comm, s);
  reduce_scatter(comm, s);
  all_gather_broadcast_reduce(comm, s);
  point_to_point(comm, s);
  if (g_size == 2) calibration(comm, s, std::size_t(1) << 20);

  CHECK_CUDA(cudaStreamSynchronize(s));
  ncclCommDestroy(comm);
  int failures = 0;
  MPI_Allreduce(&g_failures, &failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%s: %d checks failed\n", failures ? "FAIL" : "PASS", failures);
  MPI_Finalize();
  return failures ? 1 : 0;
}
