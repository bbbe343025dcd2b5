// zero.cu: ZeRO stages 1, 2 and 3 (Rajbhandari et al. 2020, arXiv:1910.02054) over
// the N devices of one process; one host thread drives every rank.
//
// Data parallel as ddp.cu (rank r runs sequences [r B, (r+1) B) of each step's N B),
// but the training state is split over the ranks. The flat parameter buffer is cut
// into blocks (embedding, each layer, head), each padded to a multiple of N floats;
// rank r owns the r-th 1/N of every block. P = padded parameter count; fp32
// everywhere, so 4 bytes of parameters, 4 of gradients and 8 of AdamW state (m, v)
// per parameter (the paper's mixed-precision count is 2 + 2 + 12):
//   stage 1  optimizer state sharded:            4P + 4P     + 8P/N  bytes per rank
//   stage 2  + gradients sharded:                4P + 4P/N   + 8P/N
//   stage 3  + parameters sharded:               4P/N + 4P/N + 8P/N
// plus workspace: stage 2 computes one block's gradients at a time in a buffer of the
// largest block; stage 3 also gathers one block's parameters at a time into one.
//
// A step, and what moves (per rank, ring algorithms, S = 4P bytes):
//   stage 1  forward, backward into the full gradient buffer; per block an in-place
//            ncclReduceScatter(avg) leaves rank r the averaged gradients of its shard;
//            AdamW on the shard; per block an in-place ncclAllGather of the updated
//            parameters.                                  (N-1)/N S + (N-1)/N S
//   stage 2  the same, but each block's reduce-scatter is issued right after that
//            block's backward, from the one-block workspace into the gradient shard;
//            no full gradient buffer ever exists.         (N-1)/N S + (N-1)/N S
//   stage 3  before each block's forward AND before its backward, ncclAllGather of its
//            parameters from the shards into the workspace; reduce-scatter of its
//            gradients after its backward; AdamW on the shards and nothing gathered
//            after the step.                              3 (N-1)/N S
// DDP's all-reduce is 2 (N-1)/N S: stages 1 and 2 cost no extra communication, stage 3
// costs 1.5x (`simt zero --params P --gpus N --link NVLink4`).
//
// Self-check: (a) the per-rank parameter, gradient and optimizer bytes equal the
// formulas above exactly (workspace and activations reported beside them); (b) the
// same K steps on ONE device with the concatenated batch: the averaged gradients of
// step 1 (put together from the owners' slices) within 1e-4 of each tensor's largest,
// losses within 1e-5, weights within lr per step (fp32 sums over ranks and over each
// rank's rows are re-associated; AdamW; see ddp.cu); with --ranks 1 bit for bit.
//
// Build: simt exec --gpus 4 kernels/parallel/zero.cu -- --stage 3
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/zero.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include "tiny_gpt.cuh"

namespace {
struct Rank {
  int dev;
  ncclComm_t comm;
  cudaStream_t st;
  tg::MemLedger mem;
  float *params = nullptr, *pshard = nullptr, *pws = nullptr;  // full (stages 1, 2) or shard + workspace (3)
  float *grads = nullptr, *gshard = nullptr, *gws = nullptr;   // full (1) or shard + workspace (2, 3)
  float *m = nullptr, *v = nullptr;                           // shards
  float* x0;
  std::vector<tg::LayerA> acts;
  tg::HeadA head;
  tg::Scratch sc;
  int *tokens, *targets;
};
}  // namespace

int main(int argc, char** argv) {
  tg::Config c;
  int ranks_req = 0, stage = 3;
  bool check_grad = false;
  double tol = -1;
  for (int i = 1; i < argc; ++i) {
    if (tg::parse_model_flag(c, argc, argv, i)) continue;
    if (tg::arg_is(argv[i], "--ranks")) ranks_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--stage")) stage = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--check-grad")) check_grad = true;
    else if (tg::arg_is(argv[i], "--tol")) tol = std::atof(tg::arg_value(argc, argv, i));
    else {
      std::printf("usage: zero [--ranks N (all devices)] [--stage 1|2|3 (3)] [--check-grad] [--tol X]\n%s",
                  tg::model_flags_help());
      return tg::arg_is(argv[i], "--help") ? 0 : 2;
    }
  }
  tg::validate(c);
  if (stage < 1 || stage > 3) {
    std::fprintf(stderr, "--stage 1, 2 or 3 (stage 0 is ddp.cu)\n");
    return 2;
  }
  if (c.sgd) {
    std::fprintf(stderr, "zero shards AdamW's state: --sgd has none\n");
    return 2;
  }
  if (check_grad) {
    CUDA_CHECK(cudaSetDevice(0));
    return tg::check_grad(c) ? 0 : 1;
  }
  const int N = tg::resolve_ranks(ranks_req);
  std::printf("ZeRO stage %d: %d ranks\n", stage, N);
  tg::print_config(c);

  const tg::ParamTable tab = tg::make_table(c, 0, -1, 1, 0, N);
  const size_t P = tab.total;
  size_t max_block = 0;
  for (auto& b : tab.blocks) max_block = std::max(max_block, b.size);
  const tg::Dims d = tg::dims_for(c, c.B);

  std::vector<ncclComm_t> comms(static_cast<size_t>(N));
  std::vector<int> devs(static_cast<size_t>(N));
  for (int r = 0; r < N; ++r) devs[size_t(r)] = r;
  NCCL_CHECK(ncclCommInitAll(comms.data(), N, devs.data()));
  std::vector<Rank> R(static_cast<size_t>(N));
  const std::vector<float> h0 = tg::init_params(c, tab);
  for (int r = 0; r < N; ++r) {
    Rank& k = R[size_t(r)];
    k.dev = r;
    k.comm = comms[size_t(r)];
    CUDA_CHECK(cudaSetDevice(k.dev));
    CUDA_CHECK(cudaStreamCreate(&k.st));
    if (stage < 3) {
      k.params = k.mem.alloc<float>(P, tg::kParams);
      CUDA_CHECK(cudaMemcpy(k.params, h0.data(), P * 4, cudaMemcpyHostToDevice));
    } else {
      k.pshard = k.mem.alloc<float>(P / N, tg::kParams);
      k.pws = k.mem.alloc<float>(max_block, tg::kWork);
      for (auto& b : tab.blocks)  // this rank's slice of every block
        CUDA_CHECK(cudaMemcpy(k.pshard + b.offset / N, h0.data() + b.offset + size_t(r) * (b.size / N), b.size / N * 4,
                              cudaMemcpyHostToDevice));
    }
    if (stage == 1) k.grads = k.mem.alloc<float>(P, tg::kGrads);
    else {
      k.gshard = k.mem.alloc<float>(P / N, tg::kGrads);
      k.gws = k.mem.alloc<float>(max_block, tg::kWork);
    }
    k.m = k.mem.alloc<float>(P / N, tg::kOptim);
    k.v = k.mem.alloc<float>(P / N, tg::kOptim);
    k.x0 = k.mem.alloc<float>(size_t(d.N()) * c.C, tg::kActs);
    for (int l = 0; l < c.L; ++l) k.acts.push_back(tg::alloc_layer_acts(k.mem, d));
    k.head = tg::alloc_head_acts(k.mem, d);
    k.sc = tg::alloc_scratch(k.mem, d);
    k.tokens = k.mem.alloc<int>(size_t(d.N()), tg::kWork);
    k.targets = k.mem.alloc<int>(size_t(d.N()), tg::kWork);
  }

  size_t bytes_sent = 0;  // per rank per step, ring: (N-1)/N of each collective's full size
  auto ring_bytes = [&](size_t count) { return size_t(double(N - 1) / N * double(count) * 4); };
  // Where block b's parameters / gradients are for compute: (base, rebase).
  auto pbase = [&](Rank& k, const tg::BlockRange& b) {
    return stage < 3 ? std::make_pair(k.params, size_t(0)) : std::make_pair(k.pws, b.offset);
  };
  auto gbase = [&](Rank& k, const tg::BlockRange& b) {
    return stage == 1 ? std::make_pair(k.grads, size_t(0)) : std::make_pair(k.gws, b.offset);
  };
  auto gather_params = [&](const tg::BlockRange& b) {  // stage 3: shards -> workspace
    NCCL_CHECK(ncclGroupStart());
    for (auto& k : R) NCCL_CHECK(ncclAllGather(k.pshard + b.offset / N, k.pws, b.size / N, ncclFloat, k.comm, k.st));
    NCCL_CHECK(ncclGroupEnd());
    bytes_sent += ring_bytes(b.size);
  };
  auto each = [&](auto fn) {
    for (auto& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      fn(k);
    }
  };
  std::vector<const tg::BlockRange*> fwd_order;
  for (auto& b : tab.blocks) fwd_order.push_back(&b);

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(0));
  timer.init();
  std::vector<double> losses, ms;
  std::vector<float> grads_step1(P);  // the averaged gradients of step 1, put together from the owners' slices
  const float scale = 1.0f / float(d.N());
  for (int step = 1; step <= c.steps; ++step) {
    bytes_sent = 0;
    CUDA_CHECK(cudaSetDevice(0));
    timer.start(R[0].st);
    each([&](Rank& k) {
      std::vector<int> in, tgt;
      tg::make_batch(c, long(step - 1) * N * c.B + long(k.dev) * c.B, c.B, in, tgt);
      CUDA_CHECK(cudaMemcpyAsync(k.tokens, in.data(), size_t(d.N()) * 4, cudaMemcpyHostToDevice, k.st));
      CUDA_CHECK(cudaMemcpyAsync(k.targets, tgt.data(), size_t(d.N()) * 4, cudaMemcpyHostToDevice, k.st));
      if (stage == 1) CUDA_CHECK(cudaMemsetAsync(k.grads, 0, P * 4, k.st));
      else CUDA_CHECK(cudaMemsetAsync(k.gshard, 0, P / N * 4, k.st));
    });
    // Forward, block by block.
    for (const tg::BlockRange* b : fwd_order) {
      if (stage == 3) gather_params(*b);
      each([&](Rank& k) {
        auto [pb, rb] = pbase(k, *b);
        if (b->block == 0) tg::embed_forward(tg::embed_view(tab, pb, rb), k.x0, k.tokens, d, k.st);
        else if (b->block <= c.L)
          tg::layer_forward(tg::layer_view(tab, pb, b->block, rb), k.acts[size_t(b->block - 1)],
                            b->block == 1 ? k.x0 : k.acts[size_t(b->block - 2)].out, d, k.st);
        else tg::head_forward(tg::head_view(tab, pb, rb), k.head, k.acts.back().out, k.targets, d, k.st);
      });
    }
    // Backward, block by block from the head.
    for (auto it = fwd_order.rbegin(); it != fwd_order.rend(); ++it) {
      const tg::BlockRange& b = **it;
      if (stage == 3) gather_params(b);
      each([&](Rank& k) {
        auto [pb, rb] = pbase(k, b);
        auto [gb, rg] = gbase(k, b);
        if (stage >= 2) CUDA_CHECK(cudaMemsetAsync(k.gws, 0, b.size * 4, k.st));
        if (b.block == c.L + 1)
          tg::head_backward(tg::head_view(tab, pb, rb), tg::head_view(tab, gb, rg), k.head, k.sc, k.targets, d, scale,
                            k.st);
        else if (b.block >= 1)
          tg::layer_backward(tg::layer_view(tab, pb, b.block, rb), tg::layer_view(tab, gb, b.block, rg),
                             k.acts[size_t(b.block - 1)], k.sc, d, k.st);
        else tg::embed_backward(tg::embed_view(tab, gb, rg), k.sc, k.tokens, d, k.st);
      });
      if (stage >= 2) {  // this block's gradients: workspace -> the owners' shards
        NCCL_CHECK(ncclGroupStart());
        for (auto& k : R)
          NCCL_CHECK(ncclReduceScatter(k.gws, k.gshard + b.offset / N, b.size / N, ncclFloat, ncclAvg, k.comm, k.st));
        NCCL_CHECK(ncclGroupEnd());
        bytes_sent += ring_bytes(b.size);
      }
    }
    if (stage == 1) {  // in place: rank r's slice of each block ends up reduced
      NCCL_CHECK(ncclGroupStart());
      for (auto& k : R)
        for (auto& b : tab.blocks)
          NCCL_CHECK(ncclReduceScatter(k.grads + b.offset, k.grads + b.offset + size_t(k.dev) * (b.size / N), b.size / N,
                                       ncclFloat, ncclAvg, k.comm, k.st));
      NCCL_CHECK(ncclGroupEnd());
      bytes_sent += ring_bytes(P);
    }
    // AdamW on the shards.
    each([&](Rank& k) {
      if (stage == 3) {
        tg::optimizer_step(c, k.pshard, k.gshard, k.m, k.v, P / N, step, k.st);
        return;
      }
      for (auto& b : tab.blocks) {
        const size_t mine = b.offset + size_t(k.dev) * (b.size / N);
        const float* g = stage == 1 ? k.grads + mine : k.gshard + b.offset / N;
        tg::optimizer_step(c, k.params + mine, g, k.m + b.offset / N, k.v + b.offset / N, b.size / N, step, k.st);
      }
    });
    if (stage < 3) {  // everyone's updated slices back to everyone, in place
      NCCL_CHECK(ncclGroupStart());
      for (auto& k : R)
        for (auto& b : tab.blocks)
          NCCL_CHECK(ncclAllGather(k.params + b.offset + size_t(k.dev) * (b.size / N), k.params + b.offset, b.size / N,
                                   ncclFloat, k.comm, k.st));
      NCCL_CHECK(ncclGroupEnd());
      bytes_sent += ring_bytes(P);
    }
    CUDA_CHECK(cudaSetDevice(0));
    timer.stop(R[0].st);
    ms.push_back(timer.ms());
    double loss = 0;
    each([&](Rank& k) {
      std::vector<float> lh(size_t(d.N()));
      CUDA_CHECK(cudaMemcpy(lh.data(), k.head.losses, lh.size() * 4, cudaMemcpyDeviceToHost));
      for (float x : lh) loss += x;
    });
    losses.push_back(loss / (double(N) * d.N()));
    if (step == 1)
      each([&](Rank& k) {
        for (auto& b : tab.blocks) {
          const size_t mine = b.offset + size_t(k.dev) * (b.size / N);
          CUDA_CHECK(cudaMemcpy(grads_step1.data() + mine, stage == 1 ? k.grads + mine : k.gshard + b.offset / N,
                                b.size / N * 4, cudaMemcpyDeviceToHost));
        }
      });
  }
  each([&](Rank& k) { CUDA_CHECK(cudaDeviceSynchronize()); });

  // (a) allocations against the formulas
  const size_t want_p = stage < 3 ? 4 * P : 4 * P / N, want_g = stage == 1 ? 4 * P : 4 * P / N, want_o = 8 * P / N;
  std::printf("\nper-device allocations (bytes; P = %zu parameters padded to blocks of a multiple of %d, %zu unpadded)\n",
              P, N, tab.unpadded());
  tg::print_memory_header();
  bool alloc_ok = true;
  for (auto& k : R) {
    tg::print_memory_row(("dev" + std::to_string(k.dev)).c_str(), k.mem);
    alloc_ok = alloc_ok && k.mem.bytes[tg::kParams] == want_p && k.mem.bytes[tg::kGrads] == want_g &&
               k.mem.bytes[tg::kOptim] == want_o;
  }
  const char* fp[] = {"", "4P", "4P", "4P/N"};
  const char* fg[] = {"", "4P", "4P/N", "4P/N"};
  std::printf("formula  %12zu %12zu %12zu   (params %s, grads %s, optimizer 8P/N)\n", want_p, want_g, want_o, fp[stage],
              fg[stage]);
  std::printf("sent per rank per step (ring): %zu bytes = %.2f x (4P (N-1)/N); DDP's all-reduce: 2.00\n", bytes_sent,
              N > 1 ? double(bytes_sent) / (4.0 * P * (N - 1) / N) : 0.0);

  // (b) against one device with the concatenated batch
  CUDA_CHECK(cudaSetDevice(0));
  tg::Replica ref;
  ref.init(c, N * c.B);
  std::vector<double> ref_losses;
  std::vector<float> ref_grads_step1;
  for (int step = 1; step <= c.steps; ++step) {
    ref_losses.push_back(ref.step(step, long(step - 1) * N * c.B, 1));
    if (step == 1) ref_grads_step1 = ref.grads_host();
  }
  std::printf("\n%5s %12s %12s %12s\n", "step", "loss", "ref loss", "ms/step");
  double loss_diff = 0;
  for (int s = 0; s < c.steps; ++s) {
    std::printf("%5d %12.6f %12.6f %12.4f\n", s + 1, losses[size_t(s)], ref_losses[size_t(s)], ms[size_t(s)]);
    loss_diff = std::fmax(loss_diff, std::fabs(losses[size_t(s)] - ref_losses[size_t(s)]));
  }
  // The full parameters: rank 0's copy (stages 1, 2: every rank's, checked equal), or the shards put together (3).
  std::vector<float> w(P);
  bool replicas_equal = true;
  for (auto& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    if (stage < 3) {
      std::vector<float> wk(P);
      CUDA_CHECK(cudaMemcpy(wk.data(), k.params, P * 4, cudaMemcpyDeviceToHost));
      if (k.dev == 0) w = wk;
      else if (std::memcmp(wk.data(), w.data(), P * 4)) replicas_equal = false;
    } else {
      for (auto& b : tab.blocks)
        CUDA_CHECK(cudaMemcpy(w.data() + b.offset + size_t(k.dev) * (b.size / N), k.pshard + b.offset / N,
                              b.size / N * 4, cudaMemcpyDeviceToHost));
    }
  }
  const std::vector<float> wref = ref.params_host();
  tg::Diff df;
  tg::RelDiff gd;
  for (size_t ti = 0; ti < tab.tensors.size(); ++ti) {
    const tg::Tensor& t = tab.tensors[ti];
    const tg::Tensor& rt = ref.tab.tensors[ti];
    gd.add(t.name + "@" + std::to_string(t.block), grads_step1.data() + t.offset, ref_grads_step1.data() + rt.offset,
           t.size());
    tg::diff_tensor(df, t.name + "@" + std::to_string(t.block),
                    std::vector<float>(w.begin() + long(t.offset), w.begin() + long(t.offset + t.size())),
                    std::vector<float>(wref.begin() + long(rt.offset), wref.begin() + long(rt.offset + rt.size())));
  }
  // Bounds as ddp.cu's: step-1 gradients 1e-4 of each tensor's largest, losses 1e-5,
  // weights lr per step (AdamW moves a weight by ~lr whatever its gradient's size).
  const double gtol = N == 1 ? 0.0 : 1e-4;
  const double wtol = tol >= 0 ? tol : (N == 1 ? 0.0 : double(c.lr) * c.steps);
  const double ltol = N == 1 ? 0.0 : 1e-5;
  const bool ok = alloc_ok && replicas_equal && gd.worst <= gtol && df.max_abs <= wtol && loss_diff <= ltol;
  std::printf("\nallocations equal the formulas: %s%s\n", alloc_ok ? "yes" : "NO",
              stage < 3 ? (replicas_equal ? "; gathered parameters bit-identical on every rank: yes"
                                          : "; gathered parameters bit-identical on every rank: NO")
                        : "");
  std::printf("vs one device, batch %d:\n  step-1 gradients: max |diff| / max |g| per tensor %.3e at %s (bound %.1e)\n"
              "  losses: max |diff| %.3e (bound %.1e)\n  weights after %d steps: max |diff| %.3e at %s (bound %.1e, "
              "max |w| %.3f)\n",
              N * c.B, gd.worst, gd.where.c_str(), gtol, loss_diff, ltol, c.steps, df.max_abs,
              df.where.empty() ? "-" : df.where.c_str(), wtol, df.max_ref);
  std::printf("weights fnv1a: all ranks' %016llx, reference %016llx (to compare a GPU run with the simulator's)\n",
              (unsigned long long)tg::fnv1a(w), (unsigned long long)tg::fnv1a(wref));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  for (auto& k : R) NCCL_CHECK(ncclCommDestroy(k.comm));
  return ok ? 0 : 1;
}
