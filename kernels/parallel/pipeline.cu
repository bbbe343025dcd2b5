// pipeline.cu: pipeline parallelism, GPipe and 1F1B, over P stages (one device each)
// of one process; one host thread drives every stage.
//
// What each stage holds: a contiguous run of tiny_gpt's layers (L/P each, the first
// stages taking the remainder), stage 0 also the embedding and stage P-1 the final
// LayerNorm, LM head and loss; their parameters, gradients and AdamW state (nothing is
// replicated), and the activations of the micro-batches it has run forward and not
// yet backward: M of them with GPipe, at most P - s on stage s with 1F1B.
//
// A step: the batch of M*B sequences is cut into M micro-batches of B. Stage s runs
// forward F_j of micro-batch j on the activations stage s-1 sends it (ncclSend on
// s-1 and ncclRecv on s, in one group: one host thread drives both ranks), and
// backward B_j on the gradient stage s+1 sends back. Gradients are summed over the
// micro-batches; after the last backward every stage applies AdamW to its own layers.
// No collective: only point-to-point sends of [B, T, C] fp32 = 4 B T C bytes per
// micro-batch per stage boundary in each direction, 2 (P-1) M 4 B T C bytes a step.
//   GPipe (Huang et al. 2019):  F_0 .. F_{M-1}, then B_0 .. B_{M-1}
//   1F1B  (PipeDream-Flush, Narayanan et al. 2021): P-s-1 warm-up forwards, then
//         one forward one backward alternately, then the remaining backwards.
// Both have the same bubble: with a forward+backward of one micro-batch on one stage
// taking t, a step takes (M + P - 1) t of which every stage is idle (P - 1) t:
//   bubble fraction = (P - 1) / (M + P - 1)  of the step   (= (P - 1) / M of the work)
// 1F1B's gain is memory: P - s micro-batches of activations live instead of M.
//
// The host issues the schedule in ticks (a list scheduler: at each tick every stage
// runs its next op if what it needs was produced in an earlier tick); a transfer is
// issued in the tick its receiver consumes it, as one NCCL group of the send and the
// receive. Each stage records cudaEvents around every F and B on its stream; the
// bubble measured on stage s is 1 - (time in F and B) / (step time), the step being
// bounded by cross-device event waits (every stage starts when all have started and
// ends when all have ended).
//
// Self-check: one device running the same M micro-batches one after the other with
// the same gradient accumulation: every stage computes the same kernels on the same
// inputs in the same order, so losses and weights must match BIT FOR BIT (bound 0).
//
// Build: simt exec --gpus 4 kernels/parallel/pipeline.cu -- --schedule 1f1b --micro-batches 8
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/pipeline.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include "tiny_gpt.cuh"

namespace {

struct Op {
  bool fwd;
  int mb;
};

struct Slot {
  float* xin;  // stage input: the embedding's output on stage 0, the received activations elsewhere
  std::vector<tg::LayerA> acts;
  tg::HeadA head;
  int *tokens, *targets;
};

struct Stage {
  int s, dev, l0, l1;  // layers l0..l1 (1-based)
  bool first, last;
  tg::ParamTable tab;
  tg::MemLedger mem;
  tg::Dims d;
  float *params, *grads, *m, *v;
  std::vector<Slot> slots;
  std::vector<float*> gradout;  // d(stage input) of each micro-batch, until stage s-1 takes it
  float* losses;                // [M, N] on the last stage
  tg::Scratch sc;
  cudaStream_t st;
  ncclComm_t comm;
  std::vector<Op> ops;
  std::vector<cudaEvent_t> ev_begin, ev_end;
  cudaEvent_t pre, start, done, end;
  cudaEvent_t sent_fwd, sent_bwd;  // where this stage's stream is when it sends (see the transfers)
  const float* out(int slot) const {
    return l1 >= l0 ? slots[size_t(slot)].acts.back().out : slots[size_t(slot)].xin;
  }
};

std::vector<Op> schedule(bool gpipe, int s, int P, int M) {
  std::vector<Op> ops;
  if (gpipe) {
    for (int j = 0; j < M; ++j) ops.push_back({true, j});
    for (int j = 0; j < M; ++j) ops.push_back({false, j});
    return ops;
  }
  const int warm = std::min(P - s - 1, M);
  int f = 0, b = 0;
  for (; f < warm; ++f) ops.push_back({true, f});
  while (f < M) {
    ops.push_back({true, f++});
    ops.push_back({false, b++});
  }
  while (b < M) ops.push_back({false, b++});
  return ops;
}

}  // namespace

int main(int argc, char** argv) {
  tg::Config c;
  int stages_req = 0, M = 4;
  bool gpipe = false, check_grad = false;
  double tol = 0;
  c.L = 0;  // default: one layer per stage, at least 2
  for (int i = 1; i < argc; ++i) {
    if (tg::parse_model_flag(c, argc, argv, i)) continue;
    if (tg::arg_is(argv[i], "--stages") || tg::arg_is(argv[i], "--ranks"))
      stages_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--micro-batches")) M = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--schedule")) {
      const char* v = tg::arg_value(argc, argv, i);
      if (tg::arg_is(v, "gpipe")) gpipe = true;
      else if (tg::arg_is(v, "1f1b")) gpipe = false;
      else { std::fprintf(stderr, "--schedule gpipe|1f1b\n"); return 2; }
    } else if (tg::arg_is(argv[i], "--check-grad")) check_grad = true;
    else if (tg::arg_is(argv[i], "--tol")) tol = std::atof(tg::arg_value(argc, argv, i));
    else {
      std::printf("usage: pipeline [--stages P (all devices)] [--micro-batches M (4)] [--schedule gpipe|1f1b (1f1b)]\n"
                  "                [--check-grad] [--tol X (0: bit for bit)]\n%s  (pipeline's default: one layer per stage, at least 2)\n",
                  tg::model_flags_help());
      return tg::arg_is(argv[i], "--help") ? 0 : 2;
    }
  }
  const int P = tg::resolve_ranks(stages_req);
  if (c.L == 0) c.L = std::max(2, P);
  tg::validate(c);
  if (check_grad) {
    CUDA_CHECK(cudaSetDevice(0));
    return tg::check_grad(c) ? 0 : 1;
  }
  if (P > c.L || M < 1) {
    std::fprintf(stderr, "need at least one layer per stage (%d stages, %d layers) and --micro-batches >= 1\n", P, c.L);
    return 2;
  }
  std::printf("pipeline: %s, %d stages, %d micro-batches of %d sequences\n", gpipe ? "GPipe" : "1F1B", P, M, c.B);
  tg::print_config(c);

  std::vector<ncclComm_t> comms(static_cast<size_t>(P));
  std::vector<int> devs(static_cast<size_t>(P));
  for (int s = 0; s < P; ++s) devs[size_t(s)] = s;
  NCCL_CHECK(ncclCommInitAll(comms.data(), P, devs.data()));
  std::vector<Stage> S(static_cast<size_t>(P));
  int next_layer = 1;
  for (int s = 0; s < P; ++s) {
    Stage& g = S[size_t(s)];
    g.s = s; g.dev = s; g.comm = comms[size_t(s)];
    g.first = s == 0; g.last = s == P - 1;
    const int n = c.L / P + (s < c.L % P ? 1 : 0);
    g.l0 = next_layer; g.l1 = next_layer + n - 1;
    next_layer += n;
    CUDA_CHECK(cudaSetDevice(g.dev));
    g.tab = tg::make_table(c, g.first ? 0 : g.l0, g.last ? c.L + 1 : g.l1);
    g.d = tg::dims_for(c, c.B);
    g.params = g.mem.alloc<float>(g.tab.total, tg::kParams);
    g.grads = g.mem.alloc<float>(g.tab.total, tg::kGrads);
    g.m = g.mem.alloc<float>(c.sgd ? 0 : g.tab.total, tg::kOptim);
    g.v = g.mem.alloc<float>(c.sgd ? 0 : g.tab.total, tg::kOptim);
    const std::vector<float> h = tg::init_params(c, g.tab);
    CUDA_CHECK(cudaMemcpy(g.params, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    const int nslots = gpipe ? M : std::min(M, P - s);
    const size_t NC = size_t(g.d.N()) * c.C;
    for (int k = 0; k < nslots; ++k) {
      Slot sl;
      sl.xin = g.mem.alloc<float>(NC, tg::kActs);
      for (int l = g.l0; l <= g.l1; ++l) sl.acts.push_back(tg::alloc_layer_acts(g.mem, g.d));
      if (g.last) sl.head = tg::alloc_head_acts(g.mem, g.d);
      sl.tokens = g.mem.alloc<int>(size_t(g.d.N()), tg::kWork);
      sl.targets = g.mem.alloc<int>(size_t(g.d.N()), tg::kWork);
      g.slots.push_back(sl);
    }
    if (!g.first)
      for (int j = 0; j < M; ++j) g.gradout.push_back(g.mem.alloc<float>(NC, tg::kWork));
    g.losses = g.mem.alloc<float>(g.last ? size_t(M) * g.d.N() : 0, tg::kWork);
    g.sc = tg::alloc_scratch(g.mem, g.d);
    CUDA_CHECK(cudaStreamCreate(&g.st));
    g.ops = schedule(gpipe, s, P, M);
    g.ev_begin.resize(g.ops.size());
    g.ev_end.resize(g.ops.size());
    for (auto& e : g.ev_begin) CUDA_CHECK(cudaEventCreate(&e));
    for (auto& e : g.ev_end) CUDA_CHECK(cudaEventCreate(&e));
    CUDA_CHECK(cudaEventCreate(&g.pre));
    CUDA_CHECK(cudaEventCreate(&g.start));
    CUDA_CHECK(cudaEventCreate(&g.done));
    CUDA_CHECK(cudaEventCreate(&g.end));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.sent_fwd, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&g.sent_bwd, cudaEventDisableTiming));
  }
  const int N = c.B * c.T;
  const size_t NC = size_t(N) * c.C;

  auto run_op = [&](Stage& g, const Op& op, int step, size_t opi) {
    const int slot = op.mb % int(g.slots.size());
    Slot& sl = g.slots[size_t(slot)];
    CUDA_CHECK(cudaSetDevice(g.dev));
    CUDA_CHECK(cudaEventRecord(g.ev_begin[opi], g.st));
    const long first_seq = long(step - 1) * M * c.B + long(op.mb) * c.B;
    if (op.fwd) {
      std::vector<int> in, tgt;
      tg::make_batch(c, first_seq, c.B, in, tgt);
      if (g.first) {
        CUDA_CHECK(cudaMemcpyAsync(sl.tokens, in.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, g.st));
        tg::embed_forward(tg::embed_view(g.tab, g.params), sl.xin, sl.tokens, g.d, g.st);
      }
      const float* x = sl.xin;
      for (int l = g.l0; l <= g.l1; ++l) {
        tg::layer_forward(tg::layer_view(g.tab, g.params, l), sl.acts[size_t(l - g.l0)], x, g.d, g.st);
        x = sl.acts[size_t(l - g.l0)].out;
      }
      if (g.last) {
        CUDA_CHECK(cudaMemcpyAsync(sl.targets, tgt.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, g.st));
        tg::head_forward(tg::head_view(g.tab, g.params), sl.head, x, sl.targets, g.d, g.st);
        CUDA_CHECK(cudaMemcpyAsync(g.losses + size_t(op.mb) * N, sl.head.losses, size_t(N) * sizeof(float),
                                   cudaMemcpyDeviceToDevice, g.st));
      }
    } else {
      if (g.last)
        tg::head_backward(tg::head_view(g.tab, g.params), tg::head_view(g.tab, g.grads), sl.head, g.sc, sl.targets,
                          g.d, 1.0f / float(size_t(N) * M), g.st);
      // else: g.sc.dres was received from stage s+1 just before this op
      for (int l = g.l1; l >= g.l0; --l)
        tg::layer_backward(tg::layer_view(g.tab, g.params, l), tg::layer_view(g.tab, g.grads, l),
                           sl.acts[size_t(l - g.l0)], g.sc, g.d, g.st);
      if (g.first) tg::embed_backward(tg::embed_view(g.tab, g.grads), g.sc, sl.tokens, g.d, g.st);
      else
        CUDA_CHECK(cudaMemcpyAsync(g.gradout[size_t(op.mb)], g.sc.dres, NC * sizeof(float), cudaMemcpyDeviceToDevice,
                                   g.st));
    }
    CUDA_CHECK(cudaEventRecord(g.ev_end[opi], g.st));
  };

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(0));
  timer.init();
  std::vector<double> losses, ms;
  std::vector<std::vector<double>> bubble(static_cast<size_t>(P));
  int ticks_used = 0;
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
      CUDA_CHECK(cudaMemsetAsync(g.grads, 0, g.tab.total * sizeof(float), g.st));
    }
    CUDA_CHECK(cudaSetDevice(0));
    timer.start(S[0].st);
    // The tick scheduler.
    std::vector<size_t> next(static_cast<size_t>(P), 0);
    std::vector<std::vector<int>> fdone(static_cast<size_t>(P), std::vector<int>(size_t(M), -1)),
        bdone(static_cast<size_t>(P), std::vector<int>(size_t(M), -1));
    int tick = 0;
    for (bool left = true; left; ++tick) {
      left = false;
      std::vector<int> runs(static_cast<size_t>(P), 0);
      for (int s = 0; s < P; ++s) {
        Stage& g = S[size_t(s)];
        if (next[size_t(s)] >= g.ops.size()) continue;
        left = true;
        const Op op = g.ops[next[size_t(s)]];
        const int dep = op.fwd ? (g.first ? 0 : fdone[size_t(s - 1)][size_t(op.mb)])
                               : (g.last ? 0 : bdone[size_t(s + 1)][size_t(op.mb)]);
        runs[size_t(s)] = dep >= 0 && dep < tick;
      }
      if (!left) break;
      // This tick's transfers, one group: activations into stages about to run F,
      // gradients into stages about to run B.
      bool any = false;
      for (int s = 0; s < P; ++s) {
        const Stage& g = S[size_t(s)];
        if (!runs[size_t(s)]) continue;
        const Op op = g.ops[next[size_t(s)]];
        if ((op.fwd && !g.first) || (!op.fwd && !g.last)) any = true;
      }
      if (any) {
        // The receiver's stream also waits (cudaStreamWaitEvent) for the point where
        // the sender's stream issues its send. NCCL implies that wait (a receive ends
        // after its send starts); written out, it shows the dependency and costs
        // nothing (README.md: simtlab's clock once missed it).
        for (int s = 0; s < P; ++s) {
          Stage& g = S[size_t(s)];
          if (!runs[size_t(s)]) continue;
          const Op op = g.ops[next[size_t(s)]];
          if ((op.fwd && !g.first) || (!op.fwd && !g.last)) {
            Stage& from = S[size_t(op.fwd ? s - 1 : s + 1)];
            cudaEvent_t ev = op.fwd ? from.sent_fwd : from.sent_bwd;
            CUDA_CHECK(cudaSetDevice(from.dev));
            CUDA_CHECK(cudaEventRecord(ev, from.st));
            CUDA_CHECK(cudaSetDevice(g.dev));
            CUDA_CHECK(cudaStreamWaitEvent(g.st, ev, 0));
          }
        }
        NCCL_CHECK(ncclGroupStart());
        for (int s = 0; s < P; ++s) {
          Stage& g = S[size_t(s)];
          if (!runs[size_t(s)]) continue;
          const Op op = g.ops[next[size_t(s)]];
          if (op.fwd && !g.first) {
            Stage& from = S[size_t(s - 1)];
            NCCL_CHECK(ncclSend(from.out(op.mb % int(from.slots.size())), NC, ncclFloat, s, from.comm, from.st));
            NCCL_CHECK(ncclRecv(g.slots[size_t(op.mb % int(g.slots.size()))].xin, NC, ncclFloat, s - 1, g.comm, g.st));
          } else if (!op.fwd && !g.last) {
            Stage& from = S[size_t(s + 1)];
            NCCL_CHECK(ncclSend(from.gradout[size_t(op.mb)], NC, ncclFloat, s, from.comm, from.st));
            NCCL_CHECK(ncclRecv(g.sc.dres, NC, ncclFloat, s + 1, g.comm, g.st));
          }
        }
        NCCL_CHECK(ncclGroupEnd());
      }
      for (int s = 0; s < P; ++s) {
        if (!runs[size_t(s)]) continue;
        Stage& g = S[size_t(s)];
        const size_t opi = next[size_t(s)]++;
        const Op op = g.ops[opi];
        run_op(g, op, step, opi);
        (op.fwd ? fdone : bdone)[size_t(s)][size_t(op.mb)] = tick;
      }
      if (tick > 4 * (M + P) + 8) {
        std::fprintf(stderr, "pipeline: the schedule does not progress (a bug)\n");
        return 1;
      }
    }
    ticks_used = tick;
    // Every stage's optimizer step, then end together.
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      tg::optimizer_step(c, g.params, g.grads, g.m, g.v, g.tab.total, step, g.st);
      CUDA_CHECK(cudaEventRecord(g.done, g.st));
    }
    for (auto& g : S) {
      CUDA_CHECK(cudaSetDevice(g.dev));
      for (auto& o : S) CUDA_CHECK(cudaStreamWaitEvent(g.st, o.done, 0));
      CUDA_CHECK(cudaEventRecord(g.end, g.st));
    }
    CUDA_CHECK(cudaSetDevice(0));
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
      bubble[size_t(g.s)].push_back(span > 0 ? 1.0 - double(busy) / span : 0.0);
    }
    Stage& lst = S[size_t(P - 1)];
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

  std::printf("\nper-stage allocations (bytes) and layers (%s keeps %s micro-batches of activations)\n",
              gpipe ? "GPipe" : "1F1B", gpipe ? "all M" : "P - s");
  std::printf("%-6s %-14s %6s ", "stage", "blocks", "slots");
  tg::print_memory_header();
  for (auto& g : S) {
    char blocks[64];
    std::snprintf(blocks, sizeof blocks, "%s%d..%d%s", g.first ? "emb+" : "", g.l0, g.l1, g.last ? "+head" : "");
    std::printf("%-6d %-14s %6zu ", g.s, blocks, g.slots.size());
    tg::print_memory_row(("dev" + std::to_string(g.dev)).c_str(), g.mem);
  }
  std::printf("sent per boundary per direction per step: M * 4 B T C = %zu bytes\n", size_t(M) * NC * 4);

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
  const double theory = double(P - 1) / double(M + P - 1);
  std::printf("\nbubble (idle fraction of the step, from cudaEvents, last step) vs (P-1)/(M+P-1) = %.4f;"
              " idle/busy vs (P-1)/M = %.4f  [%d ticks]\n",
              theory, double(P - 1) / M, ticks_used);
  for (int s = 0; s < P; ++s) {
    const double b = bubble[size_t(s)].back();
    std::printf("  stage %d: bubble %.4f  idle/busy %.4f\n", s, b, b / (1.0 - b));
  }

  const std::vector<float> wref = ref.params_host();
  tg::Diff df;
  for (auto& g : S) {
    CUDA_CHECK(cudaSetDevice(g.dev));
    std::vector<float> w(g.tab.total);
    CUDA_CHECK(cudaMemcpy(w.data(), g.params, w.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (auto& t : g.tab.tensors) {
      const tg::Tensor& rt = ref.tab.tensor(t.block, int(&t - &g.tab.tensors[size_t(g.tab.find_block(t.block)->first_tensor)]));
      std::vector<float> a(w.begin() + long(t.offset), w.begin() + long(t.offset + t.size()));
      std::vector<float> b(wref.begin() + long(rt.offset), wref.begin() + long(rt.offset + rt.size()));
      tg::diff_tensor(df, t.name + "@" + std::to_string(t.block), a, b);
    }
  }
  const bool ok = df.max_abs <= tol && loss_diff <= tol;
  std::printf("\nweights fnv1a: reference %016llx (to compare a GPU run with the simulator's)\n",
              (unsigned long long)tg::fnv1a(wref));
  std::printf("\nvs one device, %d micro-batches accumulated: max |loss diff| %.3e, max |weight diff| %.3e%s%s "
              "(bound %.1e: same kernels, same inputs, same order)\n",
              M, loss_diff, df.max_abs, df.where.empty() ? "" : " at ", df.where.c_str(), tol);
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  for (auto& g : S) NCCL_CHECK(ncclCommDestroy(g.comm));
  return ok ? 0 : 1;
}
