// tensor_parallel.cu: Megatron-LM tensor parallelism (Shoeybi et al. 2019) over the
// t devices of one process; one host thread drives every rank.
//
// What each rank holds, per layer: its t-th of the heads and of the MLP.
//   W_qkv    [3C, C]  column-parallel (split by output rows): the q, k and v rows of
//                     heads [r NH/t, (r+1) NH/t); attention runs on those heads alone
//   W_attproj[C, C]   row-parallel (split by input columns): the columns of those heads
//   W_fc     [4C, C], b_fc  column-parallel: rows [r 4C/t, (r+1) 4C/t)
//   W_fcproj [C, 4C]  row-parallel: the matching columns
//   LayerNorms and b_fcproj replicated (b_fcproj is added once, after the reduction)
// The embedding and the head are replicated here (Megatron also splits the vocabulary;
// tiny_gpt's vocabulary is small), computed redundantly by every rank on the same batch.
// Parameters per rank: 12 C^2 / t + 4C / t + 5 C per layer, plus the replicated rest;
// gradients and AdamW state the same shape (4 + 4 + 8 bytes per local parameter).
//
// Communication: Megatron's f and g. A row-parallel matmul leaves each rank a partial
// sum of the full [B T, C] output: g = all-reduce (sum) after attention's projection
// and after the MLP's projection, two per layer in forward; in backward f's mirror
// image, an all-reduce of d(LN output) after each column-parallel matmul's input
// gradient, two per layer. Each all-reduce is [B, T, C] fp32: 4 B T C bytes, a ring
// sending 2 (t-1)/t of it per rank: 4 all-reduces x 2 (t-1)/t x 4 B T C bytes per layer
// per step. They sit on the critical path (nothing to overlap them with here).
//
// Self-check: the same K steps on one device with the whole model. Not bit for bit: a
// row-parallel output is the sum of t partial sums (each over C/t or 4C/t inputs)
// instead of one running sum over C or 4C; fp32 addition is not associative. Bounds:
// step-1 gradients within 1e-4 of each tensor's largest, losses within 1e-5, weights
// within 1e-6 (SGD) or lr per step (AdamW; see ddp.cu). The replicated tensors must
// stay bit-identical across ranks (every rank gets the same all-reduce result), and
// the local parameter count must equal the formula above.
//
// Build: simt exec --gpus 2 kernels/parallel/tensor_parallel.cu
//        nvcc -std=c++20 --fmad=false -arch=sm_90 kernels/parallel/tensor_parallel.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include "tiny_gpt.cuh"

namespace {
struct Rank {
  int dev;
  tg::Replica r;
  ncclComm_t comm;
};
}  // namespace

int main(int argc, char** argv) {
  tg::Config c;
  int ranks_req = 0;
  bool check_grad = false;
  double tol = -1;
  for (int i = 1; i < argc; ++i) {
    if (tg::parse_model_flag(c, argc, argv, i)) continue;
    if (tg::arg_is(argv[i], "--ranks") || tg::arg_is(argv[i], "--tp")) ranks_req = std::atoi(tg::arg_value(argc, argv, i));
    else if (tg::arg_is(argv[i], "--check-grad")) check_grad = true;
    else if (tg::arg_is(argv[i], "--tol")) tol = std::atof(tg::arg_value(argc, argv, i));
    else {
      std::printf("usage: tensor_parallel [--ranks t (all devices)] [--check-grad] [--tol X]\n%s", tg::model_flags_help());
      return tg::arg_is(argv[i], "--help") ? 0 : 2;
    }
  }
  tg::validate(c);
  if (check_grad) {
    CUDA_CHECK(cudaSetDevice(0));
    return tg::check_grad(c) ? 0 : 1;
  }
  const int t = tg::resolve_ranks(ranks_req);
  if (c.NH % t) {
    std::fprintf(stderr, "the heads (%d) must divide over the ranks (%d)\n", c.NH, t);
    return 2;
  }
  std::printf("tensor parallel: %d ranks, %d heads and %d MLP columns each\n", t, c.NH / t, 4 * c.C / t);
  tg::print_config(c);

  std::vector<ncclComm_t> comms(static_cast<size_t>(t));
  std::vector<int> devs(static_cast<size_t>(t));
  for (int r = 0; r < t; ++r) devs[size_t(r)] = r;
  NCCL_CHECK(ncclCommInitAll(comms.data(), t, devs.data()));
  std::vector<Rank> R(static_cast<size_t>(t));
  for (int r = 0; r < t; ++r) {
    R[size_t(r)].dev = r;
    R[size_t(r)].comm = comms[size_t(r)];
    CUDA_CHECK(cudaSetDevice(r));
    R[size_t(r)].r.init(c, c.B, t, r);
  }
  const int N = c.B * c.T;
  long allreduces = 0;
  // Sum-all-reduce of N*C floats at a per-rank pointer, in place, on the compute stream.
  auto allreduce = [&](auto ptr_of) {
    NCCL_CHECK(ncclGroupStart());
    for (auto& k : R) {
      float* p = ptr_of(k.r);
      NCCL_CHECK(ncclAllReduce(p, p, size_t(N) * c.C, ncclFloat, ncclSum, k.comm, k.r.st));
    }
    NCCL_CHECK(ncclGroupEnd());
    ++allreduces;
  };
  auto each = [&](auto fn) {
    for (auto& k : R) {
      CUDA_CHECK(cudaSetDevice(k.dev));
      fn(k.r);
    }
  };

  tg::StepTimer timer;
  CUDA_CHECK(cudaSetDevice(0));
  timer.init();
  std::vector<double> losses, ms;
  std::vector<std::vector<float>> grads_step1;  // every rank's, after step 1
  const float scale = 1.0f / float(N);
  for (int step = 1; step <= c.steps; ++step) {
    std::vector<int> in, tgt;
    tg::make_batch(c, long(step - 1) * c.B, c.B, in, tgt);
    CUDA_CHECK(cudaSetDevice(0));
    timer.start(R[0].r.st);
    allreduces = 0;
    each([&](tg::Replica& m) {
      CUDA_CHECK(cudaMemsetAsync(m.grads, 0, m.tab.total * sizeof(float), m.st));
      CUDA_CHECK(cudaMemcpyAsync(m.tokens, in.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, m.st));
      CUDA_CHECK(cudaMemcpyAsync(m.targets, tgt.data(), size_t(N) * sizeof(int), cudaMemcpyHostToDevice, m.st));
      tg::embed_forward(tg::embed_view(m.tab, m.params), m.x0, m.tokens, m.d, m.st);
    });
    for (int l = 1; l <= c.L; ++l) {
      each([&](tg::Replica& m) {
        const float* x = l == 1 ? m.x0 : m.acts[size_t(l - 2)].out;
        tg::layer_forward_attn(tg::layer_view(m.tab, m.params, l), m.acts[size_t(l - 1)], x, m.d, m.st);
      });
      allreduce([&](tg::Replica& m) { return m.acts[size_t(l - 1)].attproj; });  // g
      each([&](tg::Replica& m) { tg::layer_forward_mlp(tg::layer_view(m.tab, m.params, l), m.acts[size_t(l - 1)], m.d, m.st); });
      allreduce([&](tg::Replica& m) { return m.acts[size_t(l - 1)].fcproj; });  // g
      each([&](tg::Replica& m) { tg::layer_forward_out(tg::layer_view(m.tab, m.params, l), m.acts[size_t(l - 1)], m.d, m.st); });
    }
    each([&](tg::Replica& m) {
      tg::head_forward(tg::head_view(m.tab, m.params), m.head, m.acts.back().out, m.targets, m.d, m.st);
      tg::head_backward(tg::head_view(m.tab, m.params), tg::head_view(m.tab, m.grads), m.head, m.s, m.targets, m.d,
                        scale, m.st);
    });
    for (int l = c.L; l >= 1; --l) {
      auto w = [&](tg::Replica& m) { return tg::layer_view(m.tab, m.params, l); };
      auto g = [&](tg::Replica& m) { return tg::layer_view(m.tab, m.grads, l); };
      each([&](tg::Replica& m) { tg::layer_backward_mlp(w(m), g(m), m.acts[size_t(l - 1)], m.s, m.d, m.st); });
      allreduce([&](tg::Replica& m) { return m.s.dln; });  // f's backward
      each([&](tg::Replica& m) {
        tg::layer_backward_ln2(w(m), g(m), m.acts[size_t(l - 1)], m.s, m.d, m.st);
        tg::layer_backward_attn(w(m), g(m), m.acts[size_t(l - 1)], m.s, m.d, m.st);
      });
      allreduce([&](tg::Replica& m) { return m.s.dln; });  // f's backward
      each([&](tg::Replica& m) { tg::layer_backward_ln1(w(m), g(m), m.acts[size_t(l - 1)], m.s, m.d, m.st); });
    }
    each([&](tg::Replica& m) {
      tg::embed_backward(tg::embed_view(m.tab, m.grads), m.s, m.tokens, m.d, m.st);
      tg::optimizer_step(c, m.params, m.grads, m.m, m.v, m.tab.total, step, m.st);
    });
    CUDA_CHECK(cudaSetDevice(0));
    timer.stop(R[0].r.st);
    ms.push_back(timer.ms());
    losses.push_back(R[0].r.loss_sum() / N);
    if (step == 1)
      for (auto& k : R) {
        CUDA_CHECK(cudaSetDevice(k.dev));
        grads_step1.push_back(k.r.grads_host());
      }
  }

  std::printf("\nper-device allocations (bytes); all-reduces per step: %ld (4 per layer), %zu bytes each\n", allreduces,
              size_t(N) * c.C * 4);
  std::printf("%-6s %12s ", "", "local params");
  tg::print_memory_header();
  size_t rep = 0, shard = 0;
  for (auto& tt : R[0].r.tab.tensors) (tt.split == tg::Split::None ? rep : shard) += tt.size();
  for (auto& k : R) {
    std::printf("%-6s %12zu ", "", k.r.tab.total);
    tg::print_memory_row(("dev" + std::to_string(k.dev)).c_str(), k.r.mem);
  }
  const size_t C = size_t(c.C), V = size_t(c.V), T = size_t(c.T), L = size_t(c.L);
  const size_t formula = L * ((12 * C * C + 4 * C) / size_t(t) + 5 * C) + V * C + T * C + 2 * C + V * C;
  std::printf("formula: L (12C^2/t + 4C/t + 5C) + (V + T) C + 2C + V C = %zu parameters per rank "
              "(%zu sharded + %zu replicated here): params %zu B, grads %zu B, optimizer %zu B\n",
              formula, shard, rep, 4 * formula, 4 * formula, size_t(4 * tg::optim_floats_per_param(c)) * formula);
  const bool alloc_ok = R[0].r.tab.total == formula;

  CUDA_CHECK(cudaSetDevice(0));
  tg::Replica ref;
  ref.init(c, c.B);
  std::vector<double> ref_losses;
  std::vector<float> ref_grads_step1;
  for (int step = 1; step <= c.steps; ++step) {
    ref_losses.push_back(ref.step(step, long(step - 1) * c.B, 1));
    if (step == 1) ref_grads_step1 = ref.grads_host();
  }
  std::printf("\n%5s %12s %12s %12s\n", "step", "loss", "ref loss", "ms/step");
  double loss_diff = 0;
  for (int s = 0; s < c.steps; ++s) {
    std::printf("%5d %12.6f %12.6f %12.4f\n", s + 1, losses[size_t(s)], ref_losses[size_t(s)], ms[size_t(s)]);
    loss_diff = std::fmax(loss_diff, std::fabs(losses[size_t(s)] - ref_losses[size_t(s)]));
  }

  // Gather every tensor from its shards and compare with the reference's.
  const std::vector<float> wref = ref.params_host();
  std::vector<std::vector<float>> wr;
  for (auto& k : R) {
    CUDA_CHECK(cudaSetDevice(k.dev));
    wr.push_back(k.r.params_host());
  }
  tg::Diff df;
  tg::RelDiff gd;
  bool replicated_equal = true;
  for (size_t ti = 0; ti < ref.tab.tensors.size(); ++ti) {
    const tg::Tensor& rt = ref.tab.tensors[ti];
    std::vector<float> full(rt.full_size()), gfull(rt.full_size());
    for (int r = 0; r < t; ++r) {
      const tg::Tensor& lt = R[size_t(r)].r.tab.tensors[ti];
      if (lt.split == tg::Split::None && r > 0) {
        if (std::memcmp(wr[size_t(r)].data() + lt.offset, wr[0].data() + lt.offset, lt.size() * 4)) replicated_equal = false;
        continue;
      }
      tg::scatter_to_full(lt, t, r, wr[size_t(r)].data(), full);
      tg::scatter_to_full(lt, t, r, grads_step1[size_t(r)].data(), gfull);
    }
    std::vector<float> b(wref.begin() + long(rt.offset), wref.begin() + long(rt.offset + rt.size()));
    tg::diff_tensor(df, rt.name + "@" + std::to_string(rt.block), full, b);
    gd.add(rt.name + "@" + std::to_string(rt.block), gfull.data(), ref_grads_step1.data() + rt.offset, rt.size());
  }
  // Bounds as ddp.cu's: gradients 1e-4 of each tensor's largest (re-association leaves
  // ~1e-6; a missing all-reduce or a wrong shard is O(1)); losses 1e-5; weights 1e-6
  // with SGD, lr per step with AdamW (which moves a weight by ~lr whatever its gradient).
  const double gtol = t == 1 ? 0.0 : 1e-4;
  const double wtol = tol >= 0 ? tol : (t == 1 ? 0.0 : (c.sgd ? 1e-6 : double(c.lr) * c.steps));
  const double ltol = t == 1 ? 0.0 : 1e-5;
  const bool ok = alloc_ok && replicated_equal && gd.worst <= gtol && df.max_abs <= wtol && loss_diff <= ltol;
  std::printf("\nlocal parameters equal the formula: %s; replicated tensors bit-identical on every rank: %s\n",
              alloc_ok ? "yes" : "NO", replicated_equal ? "yes" : "NO");
  std::printf("vs one device:\n  step-1 gradients: max |diff| / max |g| per tensor %.3e at %s (bound %.1e)\n"
              "  losses: max |diff| %.3e (bound %.1e)\n  weights after %d steps: max |diff| %.3e at %s (bound %.1e, "
              "max |w| %.3f)\n",
              gd.worst, gd.where.c_str(), gtol, loss_diff, ltol, c.steps, df.max_abs,
              df.where.empty() ? "-" : df.where.c_str(), wtol, df.max_ref);
  std::printf("weights fnv1a: rank 0 %016llx, reference %016llx (to compare a GPU run with the simulator's)\n",
              (unsigned long long)tg::fnv1a(wr[0]), (unsigned long long)tg::fnv1a(wref));
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  for (auto& k : R) NCCL_CHECK(ncclCommDestroy(k.comm));
  return ok ? 0 : 1;
}
