// nccl_sweep.cu: an nccl-tests-style sweep of our own, for comparing simtlab's NCCL
// (data and clock) with real NCCL on real GPUs (issue 31; docs/validation/multigpu-h200x2.md).
//
// One process, ncclCommInitAll over every visible GPU (or --ranks N), one stream per GPU.
// For all_reduce (sum), all_gather, reduce_scatter, broadcast (root 0), reduce (sum,
// root 0), sendrecv (a ring shift: rank g sends to g+1, receives from g-1) and alltoall
// (grouped ncclSend/ncclRecv, self included), in float and bf16, sizes --min-bytes to
// --max-bytes by factors of 4 (1 KiB .. 1 GiB). Each size: --warmup calls, then --iters
// calls (from 64 MiB up: iters/5, at least 1) back to back between two cudaEvents on
// every rank's stream, each call issued for all ranks inside one ncclGroupStart/End.
// time_us = the largest rank's elapsed / iters. Sizes and bandwidths as nccl-tests
// define them: S is the all-gather's output, the reduce-scatter's input, the
// all-to-all's send buffer, otherwise the buffer; algbw = S / t; busbw = algbw x
// 2(n-1)/n (all_reduce), (n-1)/n (all_gather, reduce_scatter, alltoall), 1 (others).
//
// Data: rank g's input element i is the integer ((i*2654435761 + g*40503) mod 61) - 30,
// exact in float and bf16, and so is any sum over up to 8 ranks: every rank-0 output is
// independent of the reduction order and is checked on the host (check ok/BAD). The
// hashes (FNV-1a 64 of the output bytes of rank 0 and of the last rank; reduce: root
// only) must be equal on any correct implementation. all_reduce_mixed (float) sums
// mixed-exponent values (as tests/multigpu/nccl_collectives.cu) whose hash shows the
// summation order with 3+ ranks. peer_copy_AtoB: cudaMemcpyPeerAsync between GPUs A, B
// (peer access on), timed by events on A's stream.
//
// Output: '#' comment lines, then CSV (header line "op,dtype,...") one line per point.
//   simt exec --gpus 2 --device H200 --link NVLink4 tests/cuda/nccl_sweep.cu -- --max-bytes 64M
//   nvcc -std=c++17 -O2 -arch=sm_90 tests/cuda/nccl_sweep.cu -o nccl_sweep -lnccl && ./nccl_sweep
// Flags: --ranks N  --min-bytes B  --max-bytes B (K/M/G suffixes)  --iters N (50)
//        --warmup N (5)  --ops a,b,...  --dtypes float,bf16  --no-peer
//        --no-check (no hashes, no host check: a timing-only pass)
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CUDA(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::fprintf(stderr, "cuda error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); std::exit(1); } } while (0)
#define NCCL(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { std::fprintf(stderr, "nccl error %s at %s:%d: %s\n", #x, __FILE__, __LINE__, ncclGetErrorString(r_)); std::exit(1); } } while (0)

namespace {

int n = 0;  // ranks
std::vector<ncclComm_t> comms;
std::vector<cudaStream_t> streams;
std::vector<char*> sendbuf, recvbuf;  // max_bytes each, per rank
std::vector<cudaEvent_t> ev0, ev1;
std::size_t max_bytes = std::size_t(1) << 30, min_bytes = 1024;
int iters = 50, warmup = 5;
bool do_check = true;

int ival(int g, std::uint64_t i) { return int((i * 2654435761ull + std::uint64_t(g) * 40503ull) % 61ull) - 30; }

float mixed(int g, std::uint64_t i) {
  const float scale[] = {1.0f, 1e-3f, 3e4f, 0.7f, 1e-6f, 65.0f, 2e3f, 5e-2f};
  return scale[(i + g) % 8] * (1.0f + 0.01f * float((i * 7 + g * 13) % 101)) * ((i + g) % 3 ? 1.f : -1.f);
}

std::uint16_t bf16_bits(float f) {  // exact for the small integers used here
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return std::uint16_t(b >> 16);
}

std::uint64_t fnv1a(const void* p, std::size_t bytes) {
  std::uint64_t h = 1469598103934665603ull;
  const unsigned char* c = static_cast<const unsigned char*>(p);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ c[i]) * 1099511628211ull;
  return h;
}

// Fill every rank's send buffer (max_bytes) with `kind`: 0 integers as float, 1 as bf16, 2 mixed floats.
void fill_inputs(int kind) {
  std::vector<char> host(max_bytes);
  for (int g = 0; g < n; ++g) {
    if (kind == 1) {
      auto* p = reinterpret_cast<std::uint16_t*>(host.data());
      for (std::size_t i = 0; i < max_bytes / 2; ++i) p[i] = bf16_bits(float(ival(g, i)));
    } else {
      auto* p = reinterpret_cast<float*>(host.data());
      for (std::size_t i = 0; i < max_bytes / 4; ++i) p[i] = kind == 0 ? float(ival(g, i)) : mixed(g, i);
    }
    CUDA(cudaSetDevice(g));
    CUDA(cudaMemcpy(sendbuf[g], host.data(), max_bytes, cudaMemcpyHostToDevice));
  }
}

enum Op { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, SendRecv, AllToAll, AllReduceMixed };
const char* op_name[] = {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "reduce", "sendrecv", "alltoall", "all_reduce_mixed"};

// Issue one call of `op` for every rank, as one group. c: elements per rank (ag/rs/a2a: per block).
void issue(Op op, ncclDataType_t t, std::size_t c, std::size_t elt) {
  NCCL(ncclGroupStart());
  for (int g = 0; g < n; ++g) {
    char *s = sendbuf[g], *r = recvbuf[g];
    switch (op) {
      case AllReduce: case AllReduceMixed: NCCL(ncclAllReduce(s, r, c, t, ncclSum, comms[g], streams[g])); break;
      case AllGather: NCCL(ncclAllGather(s, r, c, t, comms[g], streams[g])); break;
      case ReduceScatter: NCCL(ncclReduceScatter(s, r, c, t, ncclSum, comms[g], streams[g])); break;
      case Broadcast: NCCL(ncclBroadcast(s, r, c, t, 0, comms[g], streams[g])); break;
      case Reduce: NCCL(ncclReduce(s, r, c, t, ncclSum, 0, comms[g], streams[g])); break;
      case SendRecv:
        NCCL(ncclSend(s, c, t, (g + 1) % n, comms[g], streams[g]));
        NCCL(ncclRecv(r, c, t, (g + n - 1) % n, comms[g], streams[g]));
        break;
      case AllToAll:
        for (int p = 0; p < n; ++p) {
          NCCL(ncclSend(s + p * c * elt, c, t, p, comms[g], streams[g]));
          NCCL(ncclRecv(r + p * c * elt, c, t, p, comms[g], streams[g]));
        }
        break;
    }
  }
  NCCL(ncclGroupEnd());
}

// Rank 0's expected output element j (integer inputs), or false where none is defined.
int expected0(Op op, std::size_t j, std::size_t c) {
  int sum = 0;
  switch (op) {
    case AllReduce: case Reduce: case ReduceScatter:  // reduce-scatter: rank 0 keeps block 0
      for (int g = 0; g < n; ++g) sum += ival(g, j);
      return sum;
    case AllGather: case AllToAll: return ival(int(j / c), j % c);  // block p came from rank p
    case Broadcast: return ival(0, j);
    case SendRecv: return ival(n - 1, j);
    default: return 0;
  }
}

const char* check_output(Op op, bool bf16, const std::vector<char>& out, std::size_t elems, std::size_t c) {
  for (std::size_t j = 0; j < elems; ++j) {
    float got;
    if (bf16) {
      std::uint32_t b = std::uint32_t(reinterpret_cast<const std::uint16_t*>(out.data())[j]) << 16;
      std::memcpy(&got, &b, 4);
    } else {
      std::memcpy(&got, out.data() + 4 * j, 4);
    }
    if (op == AllReduceMixed) {  // two ranks: a + b whatever the order; more: order-dependent
      if (n > 2) return "-";
      float want = mixed(0, j);
      if (n == 2) want = want + mixed(1, j);
      if (std::memcmp(&want, &got, 4) != 0) return "BAD";
      continue;
    }
    if (got != float(expected0(op, j, c))) return "BAD";
  }
  return "ok";
}

std::string hash_of(int g, std::size_t bytes, std::vector<char>& host) {
  CUDA(cudaSetDevice(g));
  CUDA(cudaMemcpy(host.data(), recvbuf[g], bytes, cudaMemcpyDeviceToHost));
  char h[20];
  std::snprintf(h, sizeof h, "%016llx", (unsigned long long)fnv1a(host.data(), bytes));
  return h;
}

int iters_for(std::size_t bytes) { return bytes >= (std::size_t(64) << 20) ? (iters / 5 > 0 ? iters / 5 : 1) : iters; }

void run_point(Op op, bool bf16, std::size_t S, std::vector<char>& host) {
  const std::size_t elt = bf16 ? 2 : 4;
  const ncclDataType_t t = bf16 ? ncclBfloat16 : ncclFloat;
  const bool blocked = op == AllGather || op == ReduceScatter || op == AllToAll;
  const std::size_t c = blocked ? S / elt / n : S / elt;  // elements per call argument
  if (c == 0) return;
  const std::size_t bytes = blocked ? c * n * elt : c * elt;                 // S as nccl-tests reports it
  const std::size_t out_bytes = op == ReduceScatter ? c * elt : bytes;       // rank 0's output
  const int it = iters_for(bytes);
  for (int w = 0; w < warmup; ++w) issue(op, t, c, elt);
  for (int g = 0; g < n; ++g) { CUDA(cudaSetDevice(g)); CUDA(cudaEventRecord(ev0[g], streams[g])); }
  for (int k = 0; k < it; ++k) issue(op, t, c, elt);
  for (int g = 0; g < n; ++g) { CUDA(cudaSetDevice(g)); CUDA(cudaEventRecord(ev1[g], streams[g])); }
  float ms = 0;
  for (int g = 0; g < n; ++g) {
    CUDA(cudaSetDevice(g));
    CUDA(cudaStreamSynchronize(streams[g]));
    float m = 0;
    CUDA(cudaEventElapsedTime(&m, ev0[g], ev1[g]));
    if (m > ms) ms = m;
  }
  const double us = 1000.0 * ms / it, algbw = double(bytes) / (us * 1e3);
  const double factor = op == AllReduce || op == AllReduceMixed ? 2.0 * (n - 1) / n
                        : blocked ? double(n - 1) / n : 1.0;
  std::string h0 = "-", hl = "-";
  const char* ok = "-";
  if (do_check) {  // hash and check rank 0's output, then hash the last rank's
    h0 = hash_of(0, out_bytes, host);
    ok = check_output(op, bf16, host, out_bytes / elt, c);
    if (op != Reduce) hl = hash_of(n - 1, out_bytes, host);
  }
  std::printf("%s,%s,%zu,%d,%d,%.2f,%.2f,%.2f,%s,%s,%s\n", op_name[op], bf16 ? "bf16" : "float", bytes, n, it, us,
              algbw, algbw * factor, h0.c_str(), hl.c_str(), ok);
  std::fflush(stdout);
}

void peer_sweep(int a, int b) {
  CUDA(cudaSetDevice(a));
  for (std::size_t S = min_bytes; S <= max_bytes; S *= 4) {
    const int it = iters_for(S);
    for (int w = 0; w < warmup; ++w) CUDA(cudaMemcpyPeerAsync(recvbuf[b], b, sendbuf[a], a, S, streams[a]));
    CUDA(cudaEventRecord(ev0[a], streams[a]));
    for (int k = 0; k < it; ++k) CUDA(cudaMemcpyPeerAsync(recvbuf[b], b, sendbuf[a], a, S, streams[a]));
    CUDA(cudaEventRecord(ev1[a], streams[a]));
    CUDA(cudaStreamSynchronize(streams[a]));
    float ms = 0;
    CUDA(cudaEventElapsedTime(&ms, ev0[a], ev1[a]));
    const double us = 1000.0 * ms / it, bw = double(S) / (us * 1e3);
    std::printf("peer_copy_%dto%d,-,%zu,%d,%d,%.2f,%.2f,%.2f,-,-,-\n", a, b, S, n, it, us, bw, bw);
    std::fflush(stdout);
  }
}

std::size_t parse_bytes(const char* s) {
  char* end;
  double v = std::strtod(s, &end);
  switch (*end) { case 'k': case 'K': v *= 1024; break; case 'm': case 'M': v *= 1048576; break;
                  case 'g': case 'G': v *= 1073741824.0; break; default: break; }
  return std::size_t(v);
}

bool listed(const std::string& list, const char* name) {
  if (list.empty()) return true;
  std::string l = "," + list + ",";
  return l.find("," + std::string(name) + ",") != std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  int want = 0;
  bool peer = true;
  std::string ops, dtypes;
  for (int a = 1; a < argc; ++a) {
    std::string f = argv[a];
    const char* v = a + 1 < argc ? argv[a + 1] : nullptr;
    if (f == "--ranks" && v) want = std::atoi(argv[++a]);
    else if (f == "--max-bytes" && v) max_bytes = parse_bytes(argv[++a]);
    else if (f == "--min-bytes" && v) min_bytes = parse_bytes(argv[++a]);
    else if (f == "--iters" && v) iters = std::atoi(argv[++a]);
    else if (f == "--warmup" && v) warmup = std::atoi(argv[++a]);
    else if (f == "--ops" && v) ops = argv[++a];
    else if (f == "--dtypes" && v) dtypes = argv[++a];
    else if (f == "--no-peer") peer = false;
    else if (f == "--no-check") do_check = false;
    else {
      std::printf("usage: nccl_sweep [--ranks N] [--min-bytes 1K] [--max-bytes 1G] [--iters 50] [--warmup 5]\n"
                  "                  [--ops all_reduce,...] [--dtypes float,bf16] [--no-peer] [--no-check]\n");
      return f == "-h" || f == "--help" ? 0 : 2;
    }
  }
  int devices = 0;
  CUDA(cudaGetDeviceCount(&devices));
  n = want > 0 ? want : devices;
  if (n > devices || n < 1) { std::fprintf(stderr, "--ranks %d but %d GPUs\n", n, devices); return 2; }
  int version = 0;
  NCCL(ncclGetVersion(&version));
  std::printf("# nccl_sweep: %d ranks of %d GPUs, NCCL version code %d, sizes %zu..%zu bytes, iters %d (from 64 MiB: %d), warmup %d\n",
              n, devices, version, min_bytes, max_bytes, iters, iters_for(std::size_t(64) << 20), warmup);
  for (int g = 0; g < n; ++g) {
    cudaDeviceProp p;
    CUDA(cudaGetDeviceProperties(&p, g));
    std::printf("# gpu %d: %s, %.1f GiB\n", g, p.name, p.totalGlobalMem / 1073741824.0);
  }
  comms.resize(n);
  streams.resize(n);
  sendbuf.resize(n);
  recvbuf.resize(n);
  ev0.resize(n);
  ev1.resize(n);
  std::vector<int> devlist(n);
  for (int g = 0; g < n; ++g) devlist[g] = g;
  NCCL(ncclCommInitAll(comms.data(), n, devlist.data()));
  for (int g = 0; g < n; ++g) {
    CUDA(cudaSetDevice(g));
    CUDA(cudaStreamCreate(&streams[g]));
    CUDA(cudaEventCreate(&ev0[g]));
    CUDA(cudaEventCreate(&ev1[g]));
    CUDA(cudaMalloc(&sendbuf[g], max_bytes));
    CUDA(cudaMalloc(&recvbuf[g], max_bytes));
  }
  std::vector<char> host(max_bytes);
  std::printf("op,dtype,bytes,ranks,iters,time_us,algbw_GBs,busbw_GBs,hash_rank0,hash_last,check\n");
  for (int bf = 0; bf < 2; ++bf) {
    if (!listed(dtypes, bf ? "bf16" : "float")) continue;
    fill_inputs(bf);
    for (int op = AllReduce; op <= AllToAll; ++op) {
      if (!listed(ops, op_name[op])) continue;
      for (std::size_t S = min_bytes; S <= max_bytes; S *= 4) run_point(Op(op), bf != 0, S, host);
    }
  }
  if (listed(ops, op_name[AllReduceMixed]) && listed(dtypes, "float")) {
    fill_inputs(2);
    for (std::size_t S = min_bytes; S <= max_bytes; S *= 4) run_point(AllReduceMixed, false, S, host);
  }
  if (peer && n >= 2 && listed(ops, "peer_copy")) {
    for (int a = 0; a < 2; ++a) {
      int ok = 0;
      CUDA(cudaDeviceCanAccessPeer(&ok, a, 1 - a));
      CUDA(cudaSetDevice(a));
      if (ok) {
        cudaError_t e = cudaDeviceEnablePeerAccess(1 - a, 0);
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) CUDA(e);
        cudaGetLastError();
      }
      std::printf("# peer access %d -> %d: %s\n", a, 1 - a, ok ? "on" : "not possible");
    }
    peer_sweep(0, 1);
    peer_sweep(1, 0);
  }
  for (int g = 0; g < n; ++g) {
    CUDA(cudaSetDevice(g));
    CUDA(cudaFree(sendbuf[g]));
    CUDA(cudaFree(recvbuf[g]));
    NCCL(ncclCommDestroy(comms[g]));
  }
  std::printf("# done\n");
  return 0;
}
