// ddp.cu: data parallelism (PyTorch DDP's scheme) over the N devices of one process,
// one host thread driving every rank (ncclCommInitAll; every per-rank NCCL call of a
// collective sits between ncclGroupStart/ncclGroupEnd, as NCCL requires of a thread
// that drives several ranks) -- or, started by an MPI launcher (simt exec --ranks N,
// mpirun -np N), as one process per rank, as PyTorch runs DDP: MPI carries the
// ncclUniqueId from rank 0 (ncclCommInitRank), each process drives GPU LOCAL_RANK,
// and only rank 0 prints and runs the one-device reference.
//
// What each rank holds: a full replica of tiny_gpt (tiny_gpt.cuh): parameters (4 P
// bytes for P parameters), gradients (4 P), AdamW's m and v (8 P): 16 P bytes, the
// same on every rank (ZeRO stage 0). Each rank also holds the activations of its own
// micro-batch of B sequences; the global batch is N*B sequences, rank r taking
// sequences [r*B, (r+1)*B) of each step's N*B.
//
// A step: every rank runs forward and backward on its micro-batch (loss averaged over
// its B*T tokens). Gradients are grouped into buckets of about --bucket-mb MiB: whole
// tensors, taken from the END of the flat gradient buffer, because backward produces
// gradients from the last block to the first. As soon as backward has produced all
// of a bucket's gradients, the host records an event on each rank's compute stream,
// makes that rank's communication stream wait on it (cudaStreamWaitEvent) and issues
// the bucket's ncclAllReduce(ncclAvg) there: the all-reduce runs while backward
// carries on with earlier layers. After backward the compute stream waits for the last
// bucket and every rank applies the same AdamW step to the same averaged gradients,
// so the replicas stay identical. --no-overlap issues every bucket after backward.
//
// Bytes moved: a ring all-reduce of S bytes over N ranks sends 2 (N-1)/N S per rank
// (reduce-scatter then all-gather); per step S = 4 P, so each rank sends
// 8 P (N-1)/N bytes. nccl-tests' busbw = algbw * 2 (N-1)/N for the same reason.
// Exposed communication: what of the last buckets' all-reduces is left after backward
// ends (with overlap: about the last bucket's time; without: all of them). Compare
// `simt ddp --params P --backward T --gpus N --bucket B --link NVLink4`.
//
// Self-check: the same K steps on ONE device with the concatenated batch (N*B
// sequences, loss averaged over N*B*T tokens). Losses and final weights agree within
// a bound, not bit for bit: a weight gradient here is sum over ranks (ring order) of
// sums over each rank's B*T rows, there one sum over N*B*T rows; fp32 addition is not
// associative. With --ranks 1 the all-reduce of one rank is the identity and the run
// must equal the reference bit for bit.
//
// Build: simt exec --gpus 4 kernels/parallel/ddp.cu -- --ranks 4
//        simt exec --ranks 4 kernels/parallel/ddp.cu          (one process per rank)
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/ddp.cu -lnccl
//        (with $(mpicxx --showme:compile) $(mpicxx --showme:link) for mpirun -np N)
#include <cuda_runtime.h>
#include <nccl.h>
#if __has_include(<mpi.h>)
#include <mpi.h>
#define DDP_HAS_MPI 1
#else
#define DDP_HAS_MPI 0
#endif

#include "tiny_gpt.cuh"

#include <cstdint>
#include <cstdlib>

namespace {

// The processes of the run: one (holding every rank), or one per rank when an MPI
// launcher started several (its WORLD_SIZE / OMPI_COMM_WORLD_SIZE above 1).
struct World {
  int size = 1, rank = 0, local_rank = 0;
  bool processes = false;
};

int env_int(const char* a, const char* b, int fallback) {
  for (const char* name : {a, b})
    if (const char* v = std::getenv(name); v && *v) return std::atoi(v);
  return fallback;
}

World world_from_launcher(int* argc, char*** argv) {
  World w;
  if (env_int("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", 1) <= 1) return w;
#if DDP_HAS_MPI
  MPI_Init(argc, argv);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  w.local_rank = env_int("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", w.rank);
  w.processes = true;
#else
  (void)argc;
  (void)argv;
  std::fprintf(stderr, "ddp: started as one of several processes, but built without <mpi.h> to meet the others\n");
  std::exit(2);
#endif
  return w;
}

// Reductions over the processes (the identity with one process).
double sum_over_processes(const World& w, double x) {
#if DDP_HAS_MPI
  if (w.processes) MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
#endif
  (void)w;
  return x;
}

bool same_in_every_process(const World& w, unsigned long long x) {
  unsigned long long lo = x, hi = x;
#if DDP_HAS_MPI
  if (w.processes) {
    MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
  }
#endif
  (void)w;
  return lo == hi;
}

int from_rank0(const World& w, int x) {
#if DDP_HAS_MPI
  if (w.processes) MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  (void)w;
  return x;
}

void end_world(const World& w) {
#if DDP_HAS_MPI
  if (w.processes) MPI_Finalize();
#endif
  (void)w;
}

struct Bucket {
  int first_tensor, last_tensor;  // inclusive; gradients ready when backward passed first_tensor
  size_t offset, count;
};

// Buckets of about `bytes` (whole tensors, at least one), from the last tensor down.
std::vector<Bucket> make_buckets(const tg::ParamTable& tab, size_t bytes) {
  std::vector<Bucket> out;
  int last = int(tab.tensors.size()) - 1;
  size_t acc = 0;
  for (int k = last; k >= 0; --k) {
    acc += tab.tensors[size_t(k)].size() * sizeof(float);
    if (acc >= bytes || k == 0) {
      Bucket b;
      b.first_tensor = k;
      b.last_tensor = last;
      b.offset = tab.tensors[size_t(k)].offset;
      b.count = tab.tensors[size_t(last)].offset + tab.tensors[size_t(last)].size() - b.offset;
      out.push_back(b);
      last = k - 1;
      acc = 0;
    }
  }
  return out;
}

struct Rank {
  int g;    // the rank in the communicator
  int dev;
  tg::Replica r;  // model, grads, optimizer state, activations (one micro-batch)
  ncclComm_t comm;
  cudaStream_t comm_stream;
  std::vector<cudaEvent_t> ready;  // one per bucket
  cudaEvent_t comm_done, bwd_done;
};

}  // namespace

int main(int argc, char** argv) {
  const World W = world_from_launcher(&argc, &argv);
  // Only rank 0 reports, as training scripts print on their first rank only.
  if (W.rank != 0 && !std::freopen("/dev/null", "w", stdout)) return 1;
  tg::Config c;
  int ranks_req = 0;
  double bucket_mb = 0.1;
  bool overlap = true, check_grad = false;
  double tol = -1;
  std::string plant;  // a planted bug, to see the self-check fail: sum | skip-bucket
  for (int i = 1; i < argc; ++i) {
    if (tg::parse_model_flag(c, argc, argv, i)) continue;
    if (tg::arg_is(argv[i], "--ranks")) ranks_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--bucket-mb")) bucket_mb = std::atof(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--no-overlap")) overlap = false;
    else if (tg::arg_is(argv[i], "--check-grad")) check_grad = true;
    else if (tg::arg_is(argv[i], "--tol")) tol = std::atof(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--plant-bug")) plant = tg::arg_value(argc, argv, i);
    else {
      std::printf("usage: ddp [--ranks N] [--bucket-mb MB (0.1)] [--no-overlap] [--check-grad] [--tol X]\n"
                  "           [--plant-bug sum|skip-bucket: ncclSum instead of ncclAvg, or the first bucket never\n"
                  "            all-reduced; the self-check must then FAIL]\n%s",
                  tg::model_flags_help());
      return tg::arg_is(argv[i], "--help") ? 0 : 2;
    }
  }
  tg::validate(c);
  if (check_grad) {
    CUDA_CHECK(cudaSetDevice(0));
    return tg::check_grad(c) ? 0 : 1;
  }
  int ndev = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ndev));
  if (W.processes && ranks_req > 0 && ranks_req != W.size) {
    std::fprintf(stderr, "ddp: --ranks %d, but the launcher started %d processes\n", ranks_req, W.size);
    return 2;
  }
  const int N = W.processes ? W.size : tg::resolve_ranks(ranks_req);
  if (W.processes) std::printf("ddp: one process per rank (%d processes, rank 0 on GPU %d)\n", W.size, W.local_rank % ndev);
  std::printf("ddp: %d ranks, buckets of %.3g MiB, %s\n", N, bucket_mb, overlap ? "all-reduce overlapped with backward"
                                                                              : "all-reduce after backward (--no-overlap)");
  tg::print_config(c);

  // The ranks this process drives: all N, or its own.
  std::vector<Rank> R(static_cast<size_t>(W.processes ? 1 : N));
  if (W.processes) {
    R[0].g = W.rank;
    R[0].dev = W.local_rank % ndev;
    CUDA_CHECK(cudaSetDevice(R[0].dev));
    ncclUniqueId id;
    if (W.rank == 0) NCCL_CHECK(ncclGetUniqueId(&id));
#if DDP_HAS_MPI
    MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, MPI_COMM_WORLD);
#endif
    NCCL_CHECK(ncclCommInitRank(&R[0].comm, N, id, W.rank));
  } else {
    std::vector<ncclComm_t> comms(static_cast<size_t>(N));
    std::vector<int> devs(static_cast<size_t>(N));
    for (int r = 0; r < N; ++r) devs[size_t(r)] = r;
    NCCL_CHECK(ncclCommInitAll(comms.data(), N, devs.data()));
    for (int r = 0; r < N; ++r) R[size_t(r)].g = R[size_t(r)].dev = r, R[size_t(r)].comm = comms[size_t(r)];
  }
  std::vector<Bucket> buckets;
  for (Rank& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    k.r.init(c, c.B);
    CUDA_CHECK(cudaStreamCreate(&k.comm_stream));
    if (buckets.empty()) buckets = make_buckets(k.r.tab, size_t(bucket_mb * 1024 * 1024));
    k.ready.resize(buckets.size());
    for (auto& e : k.ready) CUDA_CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreate(&k.comm_done));
    CUDA_CHECK(cudaEventCreate(&k.bwd_done));
  }
  const tg::ParamTable& tab = R[0].r.tab;
  const size_t P = tab.total;
  std::printf("parameters: %zu (%zu tensors), %zu buckets:", P, tab.tensors.size(), buckets.size());
  for (auto& b : buckets) std::printf(" [%s..%s %zu B]", tab.tensors[size_t(b.first_tensor)].name.c_str(),
                                      tab.tensors[size_t(b.last_tensor)].name.c_str(), b.count * 4);
  std::printf("\n");

  // Issue the all-reduce of bucket b on every rank (one group).
  if (!plant.empty() && plant != "sum" && plant != "skip-bucket") {
    std::fprintf(stderr, "--plant-bug sum|skip-bucket\n");
    return 2;
  }
  if (!plant.empty()) std::printf("PLANTED BUG: %s\n", plant.c_str());
  auto issue_bucket = [&](size_t b) {
    if (plant == "skip-bucket" && b == 0) return;
    for (Rank& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      CUDA_CHECK(cudaEventRecord(k.ready[b], k.r.st));
      CUDA_CHECK(cudaStreamWaitEvent(k.comm_stream, k.ready[b], 0));
    }
    NCCL_CHECK(ncclGroupStart());
    for (Rank& k : R) {
      float* g = k.r.grads + buckets[b].offset;
      NCCL_CHECK(ncclAllReduce(g, g, buckets[b].count, ncclFloat, plant == "sum" ? ncclSum : ncclAvg, k.comm,
                               k.comm_stream));
    }
    NCCL_CHECK(ncclGroupEnd());
  };

  // Backward as pieces, each run on every rank before the next; after each, the
  // gradients of tensors >= watermark are complete.
  struct Piece {
    int block, part, watermark;
  };
  std::vector<Piece> pieces;
  pieces.push_back({c.L + 1, 0, tab.find_block(c.L + 1)->first_tensor});
  for (int l = c.L; l >= 1; --l) {
    const int f = tab.find_block(l)->first_tensor;
    pieces.push_back({l, 0, f + 6});  // MLP: fcw fcb fcprojw fcprojb
    pieces.push_back({l, 1, f + 4});  // LN2
    pieces.push_back({l, 2, f + 2});  // attention: qkvw attprojw
    pieces.push_back({l, 3, f + 0});  // LN1
  }
  pieces.push_back({0, 0, 0});

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(R[0].dev));
  timer.init();
  std::vector<double> losses, ms, exposed;
  std::vector<float> grads_step1;  // rank 0's averaged gradients of step 1
  for (int step = 1; step <= c.steps; ++step) {
    const long first_seq = long(step - 1) * N * c.B;
    CUDA_CHECK(cudaSetDevice(R[0].dev));
    timer.start(R[0].r.st);
    double loss = 0;
    for (Rank& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      std::vector<int> in, tgt;
      tg::make_batch(c, first_seq + long(k.g) * c.B, c.B, in, tgt);
      CUDA_CHECK(cudaMemsetAsync(k.r.grads, 0, P * sizeof(float), k.r.st));
      k.r.forward(in.data(), tgt.data());
    }
    const float scale = 1.0f / float(c.B * c.T);
    size_t next_bucket = 0;
    for (const Piece& pc : pieces) {
      for (Rank& k : R) {
        tg::Replica& m = k.r;
        CUDA_CHECK(cudaSetDevice(k.dev));
        if (pc.block == c.L + 1) {
          tg::head_backward(tg::head_view(tab, m.params), tg::head_view(tab, m.grads), m.head, m.s, m.targets, m.d,
                            scale, m.st);
        } else if (pc.block == 0) {
          tg::embed_backward(tg::embed_view(tab, m.grads), m.s, m.tokens, m.d, m.st);
        } else {
          const tg::LayerW w = tg::layer_view(tab, m.params, pc.block), g = tg::layer_view(tab, m.grads, pc.block);
          const tg::LayerA& a = m.acts[size_t(pc.block - 1)];
          if (pc.part == 0) tg::layer_backward_mlp(w, g, a, m.s, m.d, m.st);
          if (pc.part == 1) tg::layer_backward_ln2(w, g, a, m.s, m.d, m.st);
          if (pc.part == 2) tg::layer_backward_attn(w, g, a, m.s, m.d, m.st);
          if (pc.part == 3) tg::layer_backward_ln1(w, g, a, m.s, m.d, m.st);
        }
      }
      while (overlap && next_bucket < buckets.size() && pc.watermark <= buckets[next_bucket].first_tensor)
        issue_bucket(next_bucket++);
    }
    for (Rank& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      CUDA_CHECK(cudaEventRecord(k.bwd_done, k.r.st));
    }
    while (next_bucket < buckets.size()) issue_bucket(next_bucket++);
    for (Rank& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      CUDA_CHECK(cudaEventRecord(k.comm_done, k.comm_stream));
      CUDA_CHECK(cudaStreamWaitEvent(k.r.st, k.comm_done, 0));
      tg::optimizer_step(c, k.r.params, k.r.grads, k.r.m, k.r.v, P, step, k.r.st);
    }
    CUDA_CHECK(cudaSetDevice(R[0].dev));
    timer.stop(R[0].r.st);
    for (Rank& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      loss += k.r.loss_sum();
    }
    losses.push_back(sum_over_processes(W, loss) / (double(N) * c.B * c.T));
    ms.push_back(timer.ms());
    float ex = 0;
    CUDA_CHECK(cudaSetDevice(R[0].dev));
    CUDA_CHECK(cudaEventElapsedTime(&ex, R[0].bwd_done, R[0].comm_done));
    exposed.push_back(ex > 0 ? ex : 0);
    if (step == 1) grads_step1 = R[0].r.grads_host();
  }
  for (Rank& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    CUDA_CHECK(cudaDeviceSynchronize());
  }

  std::printf("\nper-device allocations (bytes; P = %zu parameters, fp32 AdamW: params 4P, grads 4P, optimizer 8P)\n", P);
  tg::print_memory_header();
  for (Rank& k : R) tg::print_memory_row(("dev" + std::to_string(k.dev)).c_str(), k.r.mem);
  std::printf("formula (ZeRO stage 0)  %12zu %12zu %12zu\n", 4 * P, 4 * P, size_t(4 * tg::optim_floats_per_param(c)) * P);
  std::printf("all-reduce bytes sent per rank per step (ring): 2 (N-1)/N * 4P = %.0f\n", 2.0 * (N - 1) / N * 4.0 * P);

  // Every process's replica must equal every other's.
  bool replicas_equal = true;
  for (Rank& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    replicas_equal &= tg::fnv1a(k.r.params_host()) == tg::fnv1a(R[0].r.params_host());
  }
  CUDA_CHECK(cudaSetDevice(R[0].dev));
  replicas_equal &= same_in_every_process(W, (unsigned long long)tg::fnv1a(R[0].r.params_host()));
  if (W.rank != 0) {  // rank 0 runs the reference and says PASS or FAIL for all
    const int ok = from_rank0(W, 0);
    NCCL_CHECK(ncclCommDestroy(R[0].comm));
    end_world(W);
    return ok ? 0 : 1;
  }

  // The reference: one device, the concatenated batch.
  CUDA_CHECK(cudaSetDevice(R[0].dev));
  tg::Replica ref;
  ref.init(c, N * c.B);
  std::vector<double> ref_losses;
  std::vector<float> ref_grads_step1;
  for (int step = 1; step <= c.steps; ++step) {
    ref_losses.push_back(ref.step(step, long(step - 1) * N * c.B, 1));
    if (step == 1) ref_grads_step1 = ref.grads_host();
  }
  tg::RelDiff gd;
  for (auto& t : tab.tensors)
    gd.add(t.name + "@" + std::to_string(t.block), grads_step1.data() + t.offset, ref_grads_step1.data() + t.offset,
           t.size());

  std::printf("\n%5s %12s %12s %12s %12s\n", "step", "loss", "ref loss", "ms/step", "exposed ms");
  double loss_diff = 0;
  for (int s = 0; s < c.steps; ++s) {
    std::printf("%5d %12.6f %12.6f %12.4f %12.4f\n", s + 1, losses[size_t(s)], ref_losses[size_t(s)], ms[size_t(s)],
                exposed[size_t(s)]);
    loss_diff = std::fmax(loss_diff, std::fabs(losses[size_t(s)] - ref_losses[size_t(s)]));
  }
  const std::vector<float> wref = ref.params_host();
  tg::Diff df;
  for (Rank& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    const std::vector<float> w = k.r.params_host();
    for (auto& t : tab.tensors) {
      std::vector<float> a(w.begin() + long(t.offset), w.begin() + long(t.offset + t.size()));
      std::vector<float> b(wref.begin() + long(t.offset), wref.begin() + long(t.offset + t.size()));
      tg::diff_tensor(df, t.name + "@" + std::to_string(t.block), a, b);
    }
  }
  // Bounds. Gradients: fp32 re-association (a weight gradient here is the ring's sum
  // over ranks of sums over each rank's B*T rows, there one sum over N*B*T rows)
  // leaves ~1e-6 of a tensor's largest gradient; 1e-4 leaves room, and a stale,
  // skipped or double-counted bucket is O(1). Weights: SGD's error is lr times the
  // gradient's (1e-6 is loose); AdamW moves every weight by ~lr per step whatever the
  // size of its gradient, so a gradient of rounding size (a sum that cancels) can
  // step either way: lr per step is all that can be promised. Losses: 1e-5.
  const double gtol = N == 1 ? 0.0 : 1e-4;
  const double wtol = tol >= 0 ? tol : (N == 1 ? 0.0 : (c.sgd ? 1e-6 : double(c.lr) * c.steps));
  const double ltol = N == 1 ? 0.0 : 1e-5;
  const bool ok = replicas_equal && gd.worst <= gtol && df.max_abs <= wtol && loss_diff <= ltol;
  std::printf("\nreplicas bit-identical after %d steps: %s\n", c.steps, replicas_equal ? "yes" : "NO");
  std::printf("vs one device, batch %d:\n  step-1 gradients: max |diff| / max |g| per tensor %.3e at %s (bound %.1e)\n"
              "  losses: max |diff| %.3e (bound %.1e)\n  weights after %d steps: max |diff| %.3e at %s (bound %.1e, "
              "max |w| %.3f)\n",
              N * c.B, gd.worst, gd.where.c_str(), gtol, loss_diff, ltol, c.steps, df.max_abs,
              df.where.empty() ? "-" : df.where.c_str(), wtol, df.max_ref);
  CUDA_CHECK(cudaSetDevice(R[0].dev));
  std::printf("weights fnv1a: rank 0 %016llx, reference %016llx (to compare a GPU run with the simulator's)\n",
              (unsigned long long)tg::fnv1a(R[0].r.params_host()), (unsigned long long)tg::fnv1a(wref));
  std::printf("%s\n", ok ? "PASS" : "FAIL");

  from_rank0(W, ok);
  for (Rank& k : R) NCCL_CHECK(ncclCommDestroy(k.comm));
  end_world(W);
  return ok ? 0 : 1;
}
