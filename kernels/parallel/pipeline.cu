// pipeline.cu: pipeline parallelism, GPipe, 1F1B and interleaved 1F1B, over P stages
// (one device each) of one process; a host thread per stage issues its work
// (--one-host-thread: one thread issues every stage's).
//
// What each stage holds: V model chunks (V = 1 except with --schedule interleaved
// --virtual-stages V). The L layers are cut into V P contiguous chunks (L/(VP) each,
// the first chunks taking the remainder); chunk k lives on stage k mod P, so stage s
// holds chunks s, s + P, ..., s + (V-1) P. Chunk 0 also holds the embedding, chunk
// VP-1 the final LayerNorm, LM head and loss. Each chunk has its own parameters,
// gradients and AdamW state (nothing is replicated) and the activations of the
// micro-batches it has run forward and not yet backward: M with GPipe, at most P - s
// on stage s with 1F1B, the schedule's peak with interleaving (counted from its op list).
//
// A step: the batch of M*B sequences is cut into M micro-batches of B. Chunk k runs
// forward F_j of micro-batch j on the activations chunk k-1 sends it (ncclSend on the
// sender's stage, ncclRecv on the receiver's, in one group: one host thread drives
// both ranks), and backward B_j on the gradient chunk k+1 sends back. Gradients are
// summed over the micro-batches; after the last backward every stage applies AdamW to
// its own chunks. No collective: only point-to-point sends of [B, T, C] fp32 = 4 B T C
// bytes per micro-batch per chunk boundary in each direction, 2 (VP-1) M 4 B T C bytes a
// step (the program counts what its ncclSend calls carried and prints it).
//   GPipe (Huang et al. 2019):  F_0 .. F_{M-1}, then B_0 .. B_{M-1}
//   1F1B  (PipeDream-Flush, Narayanan et al. 2021): P-s-1 warm-up forwards, then
//         one forward one backward alternately, then the remaining backwards.
//   interleaved 1F1B (Narayanan et al. 2021, "Efficient Large-Scale Language Model
//         Training on GPU Clusters Using Megatron-LM", sec. 2.2.2; Megatron-LM's
//         forward_backward_pipelining_with_interleaving): the k-th forward of stage s is
//         chunk (k mod PV)/P of micro-batch (k div PV) P + k mod P, backwards walk the
//         chunks in reverse; (P-s-1) 2 + (V-1) P warm-up forwards, then 1F1B. M must be
//         a multiple of P (Megatron's rule: micro-batches go round the stages in groups
//         of P); other M are refused with a message.
// With every stage taking t for a forward+backward of one micro-batch (all its chunks),
// a step takes M t + (P-1) t / V, of which every stage is idle (P-1) t / V:
//   bubble fraction = (P-1) / (V M + P - 1) of the step   (= (P-1) / (V M) of the work)
// GPipe and 1F1B have V = 1: (P-1)/(M+P-1). 1F1B's gain is memory; interleaving's is a
// bubble V times smaller, for V times as many transfers.
//
// The bubble check. tiny_gpt's stages are not equal: the first also embeds, the last
// also runs the head (7-12% more than a layer's work at the default sizes), so no
// stage takes exactly t, and every transfer occupies both ends' streams. With stage s
// taking c_s of compute and x_s of its own transfers per micro-batch (measured from
// cudaEvents around its F, B and transfer groups), t_s = c_s + x_s, the stage that
// bounds the step, b (largest t_s), waits once for the others' compute to fill and
// drain the pipeline and for the transfers on that path that do not touch b (those
// that do are b's own busy time): 2(P-2) of them when b is the first or last stage,
// 2P-6 when in the middle, x each (x: the mean transfer). A step takes M t_b + F:
//   bubble_b = F / (M t_b + F),  F = sum_{s != b} c_s / V + path_transfers x
// which is (P-1)/(VM+P-1) when the stages are equal and transfers free. The program
// measures bubble_b on the timeline (1 - stage b's busy time / the pipeline's span)
// and prints it beside both formulas; with --check-bubble it FAILs when the
// measurement is more than --bubble-tol (5%) off the first. Measured on simtlab:
// GPipe 2 and 4 stages, 1F1B 2 and 3 stages, 0.5-2.6% off, tiny sizes included
// (README.md). The host: an H200 takes about 5 us to issue a launch, and a tiny
// stage's F is ~15 launches, so one host thread issuing every stage's work is what
// binds at small sizes (with --one-host-thread: 0.43 measured against 0.17); a thread
// per stage, as Megatron-LM's process per GPU, takes the host off the path. The
// interleaved schedule's bubble is not checked: its chunks are unequal in more ways
// (embedding and head chunks, 2(VP-1) transfers a micro-batch) than this formula
// describes, and it measures 40-60% above it at these sizes.
// A schedule that serialises the stages, or transfers that stall them, moves the
// measured bubble far from both (--plant-bug serial makes every op wait for the one
// issued before it, whatever its stage: the stages take turns and the check FAILs).
//
// The host issues the schedule in ticks (a list scheduler: at each tick every stage
// runs its next op if what it needs was produced in an earlier tick); a transfer is
// issued in the tick its receiver consumes it, as one NCCL group per stage thread of
// its sends and receives (Megatron's batched send_forward_recv_backward). Ticks are
// host-side barriers between the stage threads: they cost no simulated time (NCCL's
// sends are eager below 4 MiB, so a sender does not wait for its receiver). Each stage
// records cudaEvents around every F and B and its transfers on its stream; the
// pipeline's window is bounded by cross-device event waits (every stage starts when all
// have started and ends when all have run their last op); the optimizer step follows
// it, outside the window (the formulas describe the pipeline, not the optimizer).
//
// Self-check: one device running the same M micro-batches one after the other with
// the same gradient accumulation: every chunk computes the same kernels on the same
// inputs, and each chunk runs its backwards in micro-batch order, so gradients add up
// in the same order: losses and weights must match BIT FOR BIT (bound 0).
//
// Build: simt exec --gpus 4 kernels/parallel/pipeline.cu -- --schedule 1f1b --micro-batches 8
//        simt exec --gpus 2 kernels/parallel/pipeline.cu -- --schedule interleaved --virtual-stages 2
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/pipeline.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include "tiny_gpt.cuh"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <thread>

namespace {

enum class Sched { gpipe, one_f_one_b, interleaved };

struct Op {
  bool fwd;
  int mb;
  int chunk;  // local chunk index on the stage, 0..V-1
};

struct Slot {
  float* xin;  // chunk input: the embedding's output on chunk 0, the received activations elsewhere
  std::vector<tg::LayerA> acts;
  tg::HeadA head;
  int *tokens, *targets;
};

// One model chunk (Megatron's "virtual stage"): global index k, layers l0..l1.
struct Chunk {
  int k, l0, l1;
  bool first, last;  // holds the embedding / the head
  tg::ParamTable tab;
  float *params, *grads, *m, *v;
  std::vector<Slot> slots;
  std::vector<float*> gradout;  // d(chunk input) of each micro-batch, until chunk k-1 takes it
  const float* out(int mb) const {
    const Slot& sl = slots[size_t(mb) % slots.size()];
    return l1 >= l0 ? sl.acts.back().out : sl.xin;
  }
  Slot& slot(int mb) { return slots[size_t(mb) % slots.size()]; }
};

struct Stage {
  int s, dev;
  std::vector<Chunk> chunks;
  tg::MemLedger mem;
  tg::Dims d;
  float* losses;  // [M, N] on the stage of the last chunk
  tg::Scratch sc;
  cudaStream_t st;
  ncclComm_t comm;
  std::vector<Op> ops;
  std::vector<cudaEvent_t> ev_begin, ev_end;
  std::vector<cudaEvent_t> ev_comm_begin, ev_comm_end;  // around this stage's transfers of each tick that has some
  size_t comm_used = 0;                                  // how many of them this step
  cudaEvent_t pre, start, done, end, stepped;  // start..end: the pipeline (the bubble's window)
  cudaEvent_t sent_fwd, sent_bwd;  // where this stage's stream is when it sends (see the transfers)
};

// The op list of stage s, in issue order.
std::vector<Op> schedule(Sched kind, int s, int P, int M, int V) {
  std::vector<Op> ops;
  if (kind == Sched::gpipe) {
    for (int j = 0; j < M; ++j) ops.push_back({true, j, 0});
    for (int j = 0; j < M; ++j) ops.push_back({false, j, 0});
    return ops;
  }
  if (kind == Sched::one_f_one_b) {
    const int warm = std::min(P - s - 1, M);
    int f = 0, b = 0;
    for (; f < warm; ++f) ops.push_back({true, f, 0});
    while (f < M) {
      ops.push_back({true, f++, 0});
      ops.push_back({false, b++, 0});
    }
    while (b < M) ops.push_back({false, b++, 0});
    return ops;
  }
  // Megatron-LM's interleaved schedule (schedules.py, get_model_chunk_id and
  // get_microbatch_id_in_model_chunk): M a multiple of P, checked by the caller.
  const int total = M * V;
  auto at = [&](int k, bool fwd) {
    const int in_group = k % (P * V);
    const int chunk = in_group / P;
    return Op{fwd, (k / (P * V)) * P + in_group % P, fwd ? chunk : V - 1 - chunk};
  };
  const int warm = M == P ? total : std::min(total, (P - s - 1) * 2 + (V - 1) * P);
  for (int k = 0; k < warm; ++k) ops.push_back(at(k, true));
  for (int k = 0; k < total - warm; ++k) {
    ops.push_back(at(k + warm, true));
    ops.push_back(at(k, false));
  }
  for (int k = total - warm; k < total; ++k) ops.push_back(at(k, false));
  return ops;
}

// Most micro-batches of local chunk v alive at once (forward run, backward not yet).
// Forwards and backwards of one chunk both go in micro-batch order, so the live ones
// are consecutive and slot mb % peak never holds two of them.
int peak_live(const std::vector<Op>& ops, int v) {
  int live = 0, peak = 0;
  for (const Op& o : ops)
    if (o.chunk == v) {
      live += o.fwd ? 1 : -1;
      peak = std::max(peak, live);
    }
  return std::max(peak, 1);
}

}  // namespace

int main(int argc, char** argv) {
  tg::Config c;
  int stages_req = 0, M = 4, V = 1;
  Sched kind = Sched::one_f_one_b;
  bool check_grad = false, plant_serial = false, check_bubble = false, one_host_thread = false;
  double tol = 0, bubble_tol = 0.05;
  c.L = 0;  // default: one layer per chunk, at least 2
  for (int i = 1; i < argc; ++i) {
    if (tg::parse_model_flag(c, argc, argv, i)) continue;
    if (tg::arg_is(argv[i], "--stages") || tg::arg_is(argv[i], "--ranks"))
      stages_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--micro-batches")) M = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--virtual-stages")) V = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--schedule")) {
      const char* v = tg::arg_value(argc, argv, i);
      if (tg::arg_is(v, "gpipe")) kind = Sched::gpipe;
      else if (tg::arg_is(v, "1f1b")) kind = Sched::one_f_one_b;
      else if (tg::arg_is(v, "interleaved")) kind = Sched::interleaved;
      else { std::fprintf(stderr, "--schedule gpipe|1f1b|interleaved\n"); return 2; }
    } else if (tg::arg_is(argv[i], "--check-grad")) check_grad = true;
    else if (tg::arg_is(argv[i], "--tol")) tol = std::atof(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--check-bubble")) check_bubble = true;
    else if (tg::arg_is(argv[i], "--one-host-thread")) one_host_thread = true;
    else if (tg::arg_is(argv[i], "--bubble-tol")) bubble_tol = std::atof(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--plant-bug")) {
      const char* v = tg::arg_value(argc, argv, i);
      if (!tg::arg_is(v, "serial")) { std::fprintf(stderr, "--plant-bug serial\n"); return 2; }
      plant_serial = true;
    } else {
      std::printf("usage: pipeline [--stages P (all devices)] [--micro-batches M (4)]\n"
                  "                [--schedule gpipe|1f1b|interleaved (1f1b)] [--virtual-stages V (interleaved: 2)]\n"
                  "                [--check-grad] [--tol X (0: bit for bit)] [--check-bubble] [--bubble-tol F (0.05)]\n"
                  "                [--one-host-thread (one thread issues every stage's work; default: a thread per stage)]\n"
                  "                [--plant-bug serial (the stages take turns: the bubble check must FAIL)]\n"
                  "%s  (pipeline's default: one layer per model chunk, at least 2)\n",
                  tg::model_flags_help());
      return tg::arg_is(argv[i], "--help") ? 0 : 2;
    }
  }
  const int P = tg::resolve_ranks(stages_req);
  // The planted bug orders every op after the one issued before it: one issue order.
  const int host_threads = one_host_thread || plant_serial ? 1 : P;
  if (kind == Sched::interleaved && V == 1) V = 2;
  if (kind != Sched::interleaved && V != 1) {
    std::fprintf(stderr, "--virtual-stages %d needs --schedule interleaved\n", V);
    return 2;
  }
  if (kind == Sched::interleaved && (V < 2 || P < 2 || M % P)) {
    std::fprintf(stderr,
                 "interleaved 1F1B needs --virtual-stages >= 2, at least 2 stages, and --micro-batches (%d) a "
                 "multiple of the stages (%d), as Megatron-LM requires (micro-batches go round the stages in "
                 "groups of P)\n",
                 M, P);
    return 2;
  }
  const int K = V * P;  // model chunks
  if (c.L == 0) c.L = std::max(2, K);
  tg::validate(c);
  if (check_grad) {
    CUDA_CHECK(cudaSetDevice(0));
    return tg::check_grad(c) ? 0 : 1;
  }
  if (K > c.L || M < 1) {
    std::fprintf(stderr, "need at least one layer per model chunk (%d chunks, %d layers) and --micro-batches >= 1\n", K,
                 c.L);
    return 2;
  }
  const char* kind_name = kind == Sched::gpipe ? "GPipe" : kind == Sched::one_f_one_b ? "1F1B" : "interleaved 1F1B";
  std::printf("pipeline: %s, %d stages x %d model chunks, %d micro-batches of %d sequences, %s\n", kind_name, P, V, M,
              c.B, host_threads == 1 ? "one host thread issues every stage's work" : "a host thread per stage");
  tg::print_config(c);

  std::vector<ncclComm_t> comms(static_cast<size_t>(P));
  std::vector<int> devs(static_cast<size_t>(P));
  for (int s = 0; s < P; ++s) devs[size_t(s)] = s;
  NCCL_CHECK(ncclCommInitAll(comms.data(), P, devs.data()));
  std::vector<Stage> S(static_cast<size_t>(P));
  std::vector<int> chunk_l0(size_t(K) + 1);
  for (int k = 0, next = 1; k <= K; ++k) {
    chunk_l0[size_t(k)] = next;
    next += c.L / K + (k < c.L % K ? 1 : 0);
  }
  const int N = c.B * c.T;
  const size_t NC = size_t(N) * c.C;
  for (int s = 0; s < P; ++s) {
    Stage& g = S[size_t(s)];
    g.s = s; g.dev = s; g.comm = comms[size_t(s)];
    CUDA_CHECK(cudaSetDevice(g.dev));
    g.d = tg::dims_for(c, c.B);
    g.ops = schedule(kind, s, P, M, V);
    for (int v = 0; v < V; ++v) {
      Chunk ch;
      ch.k = v * P + s;
      ch.l0 = chunk_l0[size_t(ch.k)];
      ch.l1 = chunk_l0[size_t(ch.k) + 1] - 1;
      ch.first = ch.k == 0;
      ch.last = ch.k == K - 1;
      ch.tab = tg::make_table(c, ch.first ? 0 : ch.l0, ch.last ? c.L + 1 : ch.l1);
      ch.params = g.mem.alloc<float>(ch.tab.total, tg::kParams);
      ch.grads = g.mem.alloc<float>(ch.tab.total, tg::kGrads);
      ch.m = g.mem.alloc<float>(c.sgd ? 0 : ch.tab.total, tg::kOptim);
      ch.v = g.mem.alloc<float>(c.sgd ? 0 : ch.tab.total, tg::kOptim);
      const std::vector<float> h = tg::init_params(c, ch.tab);
      CUDA_CHECK(cudaMemcpy(ch.params, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
      const int nslots = peak_live(g.ops, v);
      for (int j = 0; j < nslots; ++j) {
        Slot sl;
        sl.xin = g.mem.alloc<float>(NC, tg::kActs);
        for (int l = ch.l0; l <= ch.l1; ++l) sl.acts.push_back(tg::alloc_layer_acts(g.mem, g.d));
        if (ch.last) sl.head = tg::alloc_head_acts(g.mem, g.d);
        sl.tokens = g.mem.alloc<int>(size_t(N), tg::kWork);
        sl.targets = g.mem.alloc<int>(size_t(N), tg::kWork);
        ch.slots.push_back(sl);
      }
      if (!ch.first)
        for (int j = 0; j < M; ++j) ch.gradout.push_back(g.mem.alloc<float>(NC, tg::kWork));
      g.chunks.push_back(ch);
    }
    g.losses = g.mem.alloc<float>(s == (K - 1) % P ? size_t(M) * N : 0, tg::kWork);
    g.sc = tg::alloc_scratch(g.mem, g.d);
    CUDA_CHECK(cudaStreamCreate(&g.st));
    g.ev_begin.resize(g.ops.size());
    g.ev_end.resize(g.ops.size());
    for (auto& e : g.ev_begin) CUDA_CHECK(cudaEventCreate(&e));
    for (auto& e : g.ev_end) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaEventCreate(&g.pre));
    CUDA_CHECK(cudaEventCreate(&g.start));
    CUDA_CHECK(cudaEventCreate(&g.done));
    CUDA_CHECK(cudaEventCreate(&g.end));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.stepped, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.sent_fwd, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.sent_bwd, cudaEventDisableTiming));
  }
  auto stage_of = [&](int k) -> Stage& { return S[size_t(k % P)]; };
  auto chunk_of = [&](int k) -> Chunk& { return S[size_t(k % P)].chunks[size_t(k / P)]; };

  auto run_op = [&](Stage& g, const Op& op, int step, size_t opi) {
    Chunk& ch = g.chunks[size_t(op.chunk)];
    Slot& sl = ch.slot(op.mb);
    CUDA_CHECK(cudaSetDevice(g.dev));
    CUDA_CHECK(cudaEventRecord(g.ev_begin[opi], g.st));
    const long first_seq = long(step - 1) * M * c.B + long(op.mb) * c.B;
    if (op.fwd) {
      std::vector<int> in, tgt;
      tg::make_batch(c, first_seq, c.B, in, tgt);
      if (ch.first) {
        CUDA_CHECK(cudaMemcpyAsync(sl.tokens, in.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, g.st));
        tg::embed_forward(tg::embed_view(ch.tab, ch.params), sl.xin, sl.tokens, g.d, g.st);
      }
      const float* x = sl.xin;
      for (int l = ch.l0; l <= ch.l1; ++l) {
        tg::layer_forward(tg::layer_view(ch.tab, ch.params, l), sl.acts[size_t(l - ch.l0)], x, g.d, g.st);
        x = sl.acts[size_t(l - ch.l0)].out;
      }
      if (ch.last) {
        CUDA_CHECK(cudaMemcpyAsync(sl.targets, tgt.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, g.st));
        tg::head_forward(tg::head_view(ch.tab, ch.params), sl.head, x, sl.targets, g.d, g.st);
        CUDA_CHECK(cudaMemcpyAsync(g.losses + size_t(op.mb) * N, sl.head.losses, size_t(N) * sizeof(float),
                                   cudaMemcpyDeviceToDevice, g.st));
      }
    } else {
      if (ch.last)
        tg::head_backward(tg::head_view(ch.tab, ch.params), tg::head_view(ch.tab, ch.grads), sl.head, g.sc,
                          sl.targets, g.d, 1.0f / float(size_t(N) * M), g.st);
      // else: g.sc.dres was received from chunk k+1 just before this op
      for (int l = ch.l1; l >= ch.l0; --l)
        tg::layer_backward(tg::layer_view(ch.tab, ch.params, l), tg::layer_view(ch.tab, ch.grads, l),
                           sl.acts[size_t(l - ch.l0)], g.sc, g.d, g.st);
      if (ch.first) tg::embed_backward(tg::embed_view(ch.tab, ch.grads), g.sc, sl.tokens, g.d, g.st);
      else
        CUDA_CHECK(cudaMemcpyAsync(ch.gradout[size_t(op.mb)], g.sc.dres, NC * sizeof(float),
                                   cudaMemcpyDeviceToDevice, g.st));
    }
    CUDA_CHECK(cudaEventRecord(g.ev_end[opi], g.st));
  };
  // Does op need a transfer into its stage first, and from which chunk?
  auto source_chunk = [&](const Op& op, int s) {
    const int k = op.chunk * P + s;
    if (op.fwd) return k == 0 ? -1 : k - 1;
    return k == K - 1 ? -1 : k + 1;
  };

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(0));
  timer.init();
  std::vector<double> losses, ms;
  std::vector<std::vector<double>> bubble(static_cast<size_t>(P)), busy_ms(static_cast<size_t>(P));
  std::vector<std::vector<double>> comm_ms(static_cast<size_t>(P));  // each stage's own transfers, per step
  int ticks_used = 0;
  size_t sent_bytes_step = 0;  // what this step's ncclSend calls carried, all stages
  for (int step = 1; step <= c.steps; ++step) {
    // Start together: every stage waits for every other's "pre" event.
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      CUDA_CHECK(cudaEventRecord(g.pre, g.st));
    }
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      for (auto& o : S) CUDA_CHECK(cudaStreamWaitEvent(g.st, o.pre, 0));
      CUDA_CHECK(cudaEventRecord(g.start, g.st));
      for (auto& ch : g.chunks) CUDA_CHECK(cudaMemsetAsync(ch.grads, 0, ch.tab.total * sizeof(float), g.st));
    }
    CUDA_CHECK(cudaSetDevice(0));
    timer.start(S[0].st);
    // The tick scheduler. fdone/bdone[k][mb]: the tick chunk k ran F/B of micro-batch mb.
    std::vector<size_t> next(static_cast<size_t>(P), 0);
    std::vector<std::vector<int>> fdone(static_cast<size_t>(K), std::vector<int>(size_t(M), -1)),
        bdone(static_cast<size_t>(K), std::vector<int>(size_t(M), -1));
    std::vector<int> runs(static_cast<size_t>(P), 0);
    std::vector<size_t> cur(static_cast<size_t>(P), 0);  // this tick's op of each stage (next[] moves on)
    std::atomic<size_t> sent_bytes{0};
    for (auto& g : S) g.comm_used = 0;
    cudaEvent_t last_end = nullptr;
    int tick = -1;
    bool left = true, stuck = false;
    // Which stages run their next op in the next tick (every thread has arrived).
    auto plan_tick = [&]() noexcept {
      ++tick;
      left = false;
      for (int s = 0; s < P; ++s) {
        runs[size_t(s)] = 0;
        cur[size_t(s)] = next[size_t(s)];
        Stage& g = S[size_t(s)];
        if (next[size_t(s)] >= g.ops.size()) continue;
        left = true;
        const Op op = g.ops[next[size_t(s)]];
        const int k = op.chunk * P + s, from = source_chunk(op, s);
        const int dep = op.fwd ? (from < 0 ? 0 : fdone[size_t(from)][size_t(op.mb)])
                               : (from < 0 ? fdone[size_t(k)][size_t(op.mb)] : bdone[size_t(from)][size_t(op.mb)]);
        runs[size_t(s)] = dep >= 0 && dep < tick;
      }
      if (tick > 4 * P * (M * V + K) + 8) stuck = true, left = false;
    };
    // The op stage s runs this tick, and the stage its input comes from (-1: none).
    auto incoming = [&](int s) -> int {
      if (!runs[size_t(s)]) return -1;
      const int from = source_chunk(S[size_t(s)].ops[cur[size_t(s)]], s);
      return from < 0 ? -1 : from % P;
    };
    // This tick's transfers: activations into chunks about to run F, gradients into
    // chunks about to run B. First every sender marks where its stream is...
    auto mark_sends = [&](int s) {
      for (int r = 0; r < P; ++r)
        if (incoming(r) == s) {
          CUDA_CHECK(cudaSetDevice(S[size_t(s)].dev));
          const bool fwd = S[size_t(r)].ops[cur[size_t(r)]].fwd;
          CUDA_CHECK(cudaEventRecord(fwd ? S[size_t(s)].sent_fwd : S[size_t(s)].sent_bwd, S[size_t(s)].st));
        }
    };
    // ... then every receiver's stream also waits (cudaStreamWaitEvent) for that point.
    // NCCL implies the wait (a receive ends after its send starts); written out, it
    // shows the dependency and costs nothing (README.md: simtlab's clock once missed it).
    auto wait_for_sender = [&](int s) {
      const int from = incoming(s);
      if (from < 0) return;
      Stage& g = S[size_t(s)];
      CUDA_CHECK(cudaSetDevice(g.dev));
      CUDA_CHECK(cudaStreamWaitEvent(g.st, g.ops[cur[size_t(s)]].fwd ? S[size_t(from)].sent_fwd
                                                                        : S[size_t(from)].sent_bwd, 0));
    };
    // Does stage s send or receive this tick?
    auto transfers = [&](int s) {
      for (int r = 0; r < P; ++r)
        if (incoming(r) >= 0 && (r == s || incoming(r) == s)) return true;
      return false;
    };
    // Events around stage s's transfers of the tick, after its wait for the sender: what
    // lies between them is the transfers themselves, the stage's own communication
    // (busy time, not bubble).
    auto mark_comm = [&](int s, bool begin) {
      if (!transfers(s)) return;
      Stage& g = S[size_t(s)];
      CUDA_CHECK(cudaSetDevice(g.dev));
      if (begin && g.comm_used == g.ev_comm_begin.size()) {
        g.ev_comm_begin.emplace_back();
        g.ev_comm_end.emplace_back();
        CUDA_CHECK(cudaEventCreate(&g.ev_comm_begin.back()));
        CUDA_CHECK(cudaEventCreate(&g.ev_comm_end.back()));
      }
      CUDA_CHECK(cudaEventRecord(begin ? g.ev_comm_begin[g.comm_used] : g.ev_comm_end[g.comm_used++], g.st));
    };
    // Stage s's part of the tick's transfers: its sends and its receive.
    auto transfer_calls = [&](int s) {
      for (int r = 0; r < P; ++r) {
        const int f = incoming(r);
        if (f < 0 || (f != s && r != s)) continue;
        Stage& g = S[size_t(r)];
        const Op op = g.ops[cur[size_t(r)]];
        const int from = source_chunk(op, r);
        if (f == s) {
          const Chunk& src = chunk_of(from);
          const float* sendbuf = op.fwd ? src.out(op.mb) : src.gradout[size_t(op.mb)];
          NCCL_CHECK(ncclSend(sendbuf, NC, ncclFloat, r, S[size_t(f)].comm, S[size_t(f)].st));
          sent_bytes += NC * sizeof(float);
        }
        if (r == s) {
          float* recvbuf = op.fwd ? g.chunks[size_t(op.chunk)].slot(op.mb).xin : g.sc.dres;
          NCCL_CHECK(ncclRecv(recvbuf, NC, ncclFloat, f, g.comm, g.st));
        }
      }
    };
    auto run_next = [&](int s) {
      if (!runs[size_t(s)]) return;
      Stage& g = S[size_t(s)];
      const size_t opi = cur[size_t(s)];
      next[size_t(s)] = opi + 1;
      const Op op = g.ops[opi];
      if (plant_serial && last_end) {  // the planted bug: every op waits for the one issued before it
        CUDA_CHECK(cudaSetDevice(g.dev));
        CUDA_CHECK(cudaStreamWaitEvent(g.st, last_end, 0));
      }
      run_op(g, op, step, opi);
      last_end = g.ev_end[opi];
      (op.fwd ? fdone : bdone)[size_t(op.chunk * P + s)][size_t(op.mb)] = tick;
    };
    if (host_threads == 1) {
      // One host thread issues every stage's work, each tick's transfers as one group.
      for (plan_tick(); left; plan_tick()) {
        for (int s = 0; s < P; ++s) mark_sends(s);
        for (int s = 0; s < P; ++s) wait_for_sender(s), mark_comm(s, true);
        NCCL_CHECK(ncclGroupStart());
        for (int s = 0; s < P; ++s) transfer_calls(s);
        NCCL_CHECK(ncclGroupEnd());
        for (int s = 0; s < P; ++s) mark_comm(s, false);
        for (int s = 0; s < P; ++s) run_next(s);
      }
    } else {
      // A host thread per stage, as Megatron-LM's process per GPU: each issues only its
      // own stage's launches and its side of the transfers; the ticks keep them in step
      // (host-side barriers: they cost no simulated time, a real host would block in
      // the transfers instead).
      std::barrier tick_start(P, plan_tick);
      std::barrier<> sends_marked(P);
      std::vector<std::thread> threads;
      for (int s = 0; s < P; ++s)
        threads.emplace_back([&, s] {
          CUDA_CHECK(cudaSetDevice(S[size_t(s)].dev));
          for (;;) {
            tick_start.arrive_and_wait();
            if (!left) return;
            mark_sends(s);
            sends_marked.arrive_and_wait();
            wait_for_sender(s);
            mark_comm(s, true);
            NCCL_CHECK(ncclGroupStart());
            transfer_calls(s);
            NCCL_CHECK(ncclGroupEnd());
            mark_comm(s, false);
            run_next(s);
          }
        });
      for (auto& t : threads) t.join();
    }
    if (stuck) {
      std::fprintf(stderr, "pipeline: the schedule does not progress (a bug)\n");
      return 1;
    }
    sent_bytes_step = sent_bytes;
    ticks_used = tick;
    // The pipeline ends when every stage has run its last op (the bubble's window),
    // then every stage's optimizer step; the step ends when all have stepped.
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      CUDA_CHECK(cudaEventRecord(g.done, g.st));
    }
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      for (auto& o : S) CUDA_CHECK(cudaStreamWaitEvent(g.st, o.done, 0));
      CUDA_CHECK(cudaEventRecord(g.end, g.st));
      for (auto& ch : g.chunks) tg::optimizer_step(c, ch.params, ch.grads, ch.m, ch.v, ch.tab.total, step, g.st);
      CUDA_CHECK(cudaEventRecord(g.stepped, g.st));
    }
    CUDA_CHECK(cudaSetDevice(0));
    for (auto& o : S) CUDA_CHECK(cudaStreamWaitEvent(S[0].st, o.stepped, 0));
    timer.stop(S[0].st);
    ms.push_back(timer.ms());
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      CUDA_CHECK(cudaEventSynchronize(g.end));
      float span = 0, busy = 0;
      CUDA_CHECK(cudaEventElapsedTime(&span, g.start, g.end));
      for (size_t k = 0; k < g.ops.size(); ++k) {
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, g.ev_begin[k], g.ev_end[k]));
        busy += t;
      }
      float comm = 0;
      for (size_t k = 0; k < g.comm_used; ++k) {
        float t = 0;
        CUDA_CHECK(cudaEventElapsedTime(&t, g.ev_comm_begin[k], g.ev_comm_end[k]));
        comm += t;
      }
      busy += comm;
      bubble[size_t(g.s)].push_back(span > 0 ? 1.0 - double(busy) / span : 0.0);
      busy_ms[size_t(g.s)].push_back(busy);
      comm_ms[size_t(g.s)].push_back(comm);
    }
    Stage& lst = stage_of(K - 1);
    CUDA_CHECK(cudaSetDevice(lst.dev));
    std::vector<float> lh(size_t(M) * N);
    CUDA_CHECK(cudaMemcpy(lh.data(), lst.losses, lh.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double total = 0;
    for (int j = 0; j < M; ++j) {
      double sj = 0;
      for (int n = 0; n < N; ++n) sj += lh[size_t(j) * N + n];
      total += sj;
    }
    losses.push_back(total / (double(N) * M));
  }

  std::printf("\nper-stage allocations (bytes) and layers (live micro-batches of activations per chunk: %s)\n",
              kind == Sched::gpipe ? "all M" : kind == Sched::one_f_one_b ? "P - s" : "the schedule's peak");
  std::printf("%-6s %-22s %6s ", "stage", "chunks: layers", "slots");
  tg::print_memory_header();
  for (auto& g : S) {
    std::string blocks, slots;
    for (auto& ch : g.chunks) {
      char b[48];
      std::snprintf(b, sizeof b, "%s%s%d..%d%s", blocks.empty() ? "" : ",", ch.first ? "emb+" : "", ch.l0, ch.l1,
                    ch.last ? "+head" : "");
      blocks += b;
      slots += (slots.empty() ? "" : ",") + std::to_string(ch.slots.size());
    }
    std::printf("%-6d %-22s %6s ", g.s, blocks.c_str(), slots.c_str());
    tg::print_memory_row(("dev" + std::to_string(g.dev)).c_str(), g.mem);
  }
  const size_t sent_formula = size_t(2) * size_t(K - 1) * size_t(M) * NC * 4;
  std::printf("bytes sent per step (ncclSend counts, all stages): %zu; formula 2 (VP-1) M 4 B T C = %zu: %s\n",
              sent_bytes_step, sent_formula, sent_bytes_step == sent_formula ? "equal" : "DIFFERENT");

  // The reference: one device, the same micro-batches in order, gradients accumulated.
  CUDA_CHECK(cudaSetDevice(0));
  tg::Replica ref;
  ref.init(c, c.B);
  std::vector<double> ref_losses;
  for (int step = 1; step <= c.steps; ++step) ref_losses.push_back(ref.step(step, long(step - 1) * M * c.B, M));

  std::printf("\n%5s %12s %12s %12s\n", "step", "loss", "ref loss", "ms/step");
  double loss_diff = 0;
  for (int s = 0; s < c.steps; ++s) {
    std::printf("%5d %12.6f %12.6f %12.4f\n", s + 1, losses[size_t(s)], ref_losses[size_t(s)], ms[size_t(s)]);
    loss_diff = std::fmax(loss_diff, std::fabs(losses[size_t(s)] - ref_losses[size_t(s)]));
  }

  // The bubble (last step): measured on the stage that bounds the step against the
  // formula at the measured stage times and transfer time (header), and the equal-stage formula.
  const double equal_formula = double(P - 1) / double(V * M + P - 1);
  int b = 0;
  double sum_t = 0;
  for (int s = 0; s < P; ++s) {
    sum_t += busy_ms[size_t(s)].back() / M;
    if (busy_ms[size_t(s)].back() > busy_ms[size_t(b)].back()) b = s;
  }
  // What stage b waits for: the other stages' compute on the fill and drain path, and
  // the transfers on it that do not touch b (those that do are b's own busy time).
  double others = 0, comm_all = 0;
  for (int s = 0; s < P; ++s) {
    comm_all += comm_ms[size_t(s)].back();
    if (s != b) others += (busy_ms[size_t(s)].back() - comm_ms[size_t(s)].back()) / M;
  }
  const double x = P > 1 ? comm_all / (2.0 * 2.0 * (K - 1) * M) : 0.0;  // one transfer (both ends count it)
  const int path_transfers = P < 3 ? 0 : (b == 0 || b == P - 1) ? 2 * (P - 2) : 2 * P - 6;
  const double t_b = busy_ms[size_t(b)].back() / M, fill = others / V + path_transfers * x;
  const double stage_formula = P > 1 ? fill / (M * t_b + fill) : 0.0;
  const double measured = bubble[size_t(b)].back();
  const double rel_stage = stage_formula > 0 ? std::fabs(measured - stage_formula) / stage_formula : std::fabs(measured);
  const double rel_equal = equal_formula > 0 ? (measured - equal_formula) / equal_formula : measured;
  const bool bubble_ok = !check_bubble || P == 1 || rel_stage <= bubble_tol;
  std::printf("\nbubble (idle fraction of the pipeline, from cudaEvents, last step: the optimizer step excluded)  [%d ticks]\n", ticks_used);
  for (int s = 0; s < P; ++s) {
    const double bs = bubble[size_t(s)].back();
    std::printf("  stage %d: busy %.4f ms per micro-batch (%.4f of it its own transfers; %+.1f%% of the mean), bubble %.4f%s\n",
                s, busy_ms[size_t(s)].back() / M, comm_ms[size_t(s)].back() / M,
                100.0 * (busy_ms[size_t(s)].back() / M / (sum_t / P) - 1.0), bs, s == b ? "  <- bounds the step" : "");
  }
  std::printf("  equal stages, free transfers: (P-1)/(VM+P-1) = %.4f of the step, (P-1)/(VM) = %.4f of the work"
              " (Narayanan et al. 2021); measured %+.1f%%\n",
              equal_formula, double(P - 1) / double(V * M), 100.0 * rel_equal);
  std::printf("  at the measured times: F / (M t_b + F), t_b stage %d's compute and transfers per micro-batch, F the\n"
              "  others' compute / V + the %d transfers on the fill and drain path that do not touch stage %d (x = %.4f ms)\n"
              "  = %.4f; measured %.4f, %.1f%% off (bound %.0f%%): %s\n",
              b, path_transfers, b, x, stage_formula, measured, 100.0 * rel_stage, 100.0 * bubble_tol,
              !check_bubble ? "not checked (--check-bubble)" : bubble_ok ? "ok" : "FAIL");

  const std::vector<float> wref = ref.params_host();
  tg::Diff df;
  for (auto& g : S) {
    CUDA_CHECK(cudaSetDevice(g.dev));
    for (auto& ch : g.chunks) {
      std::vector<float> w(ch.tab.total);
      CUDA_CHECK(cudaMemcpy(w.data(), ch.params, w.size() * sizeof(float), cudaMemcpyDeviceToHost));
      for (auto& t : ch.tab.tensors) {
        const int k = int(&t - &ch.tab.tensors[size_t(ch.tab.find_block(t.block)->first_tensor)]);
        const tg::Tensor& rt = ref.tab.tensor(t.block, k);
        std::vector<float> a(w.begin() + long(t.offset), w.begin() + long(t.offset + t.size()));
        std::vector<float> r(wref.begin() + long(rt.offset), wref.begin() + long(rt.offset + rt.size()));
        tg::diff_tensor(df, t.name + "@" + std::to_string(t.block), a, r);
      }
    }
  }
  const bool bytes_ok = sent_bytes_step == sent_formula;
  const bool ok = df.max_abs <= tol && loss_diff <= tol && bubble_ok && bytes_ok;
  std::printf("\nweights fnv1a: reference %016llx (to compare a GPU run with the simulator's)\n",
              (unsigned long long)tg::fnv1a(wref));
  std::printf("\nvs one device, %d micro-batches accumulated: max |loss diff| %.3e, max |weight diff| %.3e%s%s "
              "(bound %.1e: same kernels, same inputs, same order)\n",
              M, loss_diff, df.max_abs, df.where.empty() ? "" : " at ", df.where.c_str(), tol);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  for (auto& g : S) NCCL_CHECK(ncclCommDestroy(g.comm));
  return ok ? 0 : 1;
}
