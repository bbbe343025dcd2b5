// How a training budget prints itself: JSON for plots, text with its formulas.
#include "cost/train/budget_train.hpp"

#include <fmt/core.h>

namespace simt::cost {

namespace {

const char* util_name(UtilizationKind k) {
  switch (k) {
    case UtilizationKind::Mfu: return "MFU";
    case UtilizationKind::Hfu: return "HFU";
    case UtilizationKind::Achieved: return "achieved";
    case UtilizationKind::Roofline: return "roofline MFU";
  }
  return "?";
}

std::string line(const std::string& label, double value, const std::string& formula) {
  return fmt::format("  {:<34} {:>12.4g}   {}\n", label, value, formula);
}

std::string flops_section(const TrainBudget& b, bool explain) {
  const auto& f = b.flops;
  const auto* m = b.in.model;
  std::string o = "FLOPs\n";
  o += line("6ND", f.six_nd, fmt::format("6 x N {:.4g} x D {:.4g}", f.n_params, b.in.tokens));
  if (!m) return o + "  (no architecture given: attention and Megatron terms need --model)\n";
  const double halve = b.in.causal_halving ? 0.5 : 1.0;
  o += line("attention term", f.attention,
            fmt::format("6 L s H (d_qk + d_v) D{} = 6 x {} x {} x {} x ({} + {}) x D{}", halve < 1 ? " / 2" : "",
                        m->layers, b.in.seq, m->heads, m->qk_head_dim(), m->v_head_dim(),
                        halve < 1 ? " / 2 (causal)" : " (12 L s d D for MHA)"));
  o += line("model FLOPs (MFU basis)", f.model_flops, "6ND + attention term");
  o += line(fmt::format("recompute extra ({})", models::to_string(b.in.recompute)), f.recompute_extra,
            b.in.recompute == models::Recompute::Full        ? "layers' forward again (2ND - LM head + attn/3)"
            : b.in.recompute == models::Recompute::Selective ? "QK^T and PV forward again"
                                                             : "-");
  o += line("hardware FLOPs (HFU basis)", f.hardware_flops, "model FLOPs + recompute extra");
  o += line("Megatron, no recompute", f.megatron_72, "72 l h^2 (1 + s/(6h) + V/(12 l h)) x D");
  o += line("Megatron, full recompute", f.megatron_96, "96 l h^2 (1 + s/(6h) + V/(16 l h)) x D");
  if (explain) {
    o += fmt::format(
        "    N = {:.6g}: parameters doing matmul work per token (active experts only; input\n"
        "      embedding and learned positions are lookups). 6 = 2 (multiply-add) x 3 (forward +\n"
        "      backward, which costs two forward passes). Kaplan et al. 2020, Sec. 2.1.\n"
        "    attention term: QK^T and PV are 2 s d_qk and 2 s d_v FLOPs per head, token and layer\n"
        "      forward; x3 for training. PaLM's MFU definition (Chowdhery et al. 2022, App. B).\n"
        "    Megatron: Narayanan et al. 2021 (arXiv:2104.04473), Eq. 3, per iteration / (B s);\n"
        "      assumes MHA and a 4h GELU MLP, so it differs from the exact count for GQA/SwiGLU/MoE.\n"
        "      l={} h={} s={} V={}\n",
        f.n_params, m->layers, m->d_model, b.in.seq, m->vocab);
  }
  return o;
}

std::string step_section(const TrainBudget& b, bool explain) {
  if (!b.step) return "";
  const auto& st = *b.step;
  const auto& in = b.in;
  std::string o = fmt::format(
      "\nRoofline step (one micro-batch of {} x {} tokens, per operator, tp {} pp {}{})\n", in.micro_batch, in.seq,
      in.layout.tp, in.layout.pp, in.flash_attention ? ", fused kernels" : ", unfused");
  o += fmt::format("  {:.4g} ms per micro-batch: {:.4g} ms compute-bound ops, {:.4g} ms memory-bound, {:.4g} ms "
                   "all-reduces/sends (summed over stages, / pp)\n",
                   st.time_s * 1e3, st.compute_s * 1e3 / in.layout.pp, st.memory_s * 1e3 / in.layout.pp,
                   st.comm_s * 1e3 / in.layout.pp);
  o += fmt::format("  MFU bound {:.1f}% = model FLOPs {:.4g} / (tp x pp x peak x step){}\n", 100 * st.roofline_mfu,
                   st.model_flops, b.util_from_roofline ? " (used for the time below)" : "");
  if (explain) {
    StepTime view;
    view.ops = st.ops;
    for (const auto& op : st.ops) view.time_s += op.total_s();
    o += step_table(view);
    o += "    no pipeline bubble and no data-parallel gradient all-reduce in this step; see simt pipeline, simt ddp.\n";
  }
  return o;
}

std::string time_section(const TrainBudget& b, bool explain) {
  const auto& in = b.in;
  std::string o = "\nTime\n";
  const bool achieved = in.util_kind == UtilizationKind::Achieved;
  const std::string basis = in.util_kind == UtilizationKind::Mfu ? "model" : "hardware";
  if (achieved)
    o += fmt::format("  time = {} FLOPs / (G x achieved) = {:.4g} / ({} x {:.4g} FLOP/s) = {:.4g} s\n", basis,
                     b.counted_flops, in.gpus, in.util, b.time_s);
  else
    o += fmt::format("  time = {} FLOPs / (G x peak x {}) = {:.4g} / ({} x {:.4g} x {:.3g}) = {:.4g} s\n", basis,
                     util_name(in.util_kind), b.counted_flops, in.gpus, b.peak, in.util, b.time_s);
  o += fmt::format("  {:.4g} days, {:.4g} GPU-hours\n", b.days, b.gpu_hours);
  o += fmt::format("  {:.4g} days counting {} only ({:.4g} FLOPs; the attention term dropped)\n",
                   b.simple_days, b.simple_flops == b.flops.six_nd ? "6ND" : "8ND (6ND + full recompute)",
                   b.simple_flops);
  if (b.price > 0)
    o += fmt::format("  cost {:.4g} USD at {:.3g} USD per GPU-hour\n", b.cost_usd, b.price);
  else
    o += "  cost: no price for this device in the catalog; pass --price-per-gpu-hour\n";
  o += fmt::format("  energy {:.4g} MWh = G x TDP {:.0f} W x time (GPUs only, at TDP: an upper bound)\n",
                   b.energy_kwh / 1e3, in.device->tdp_watts);
  if (explain)
    o += fmt::format("    peak {} {:.4g} FLOP/s: {}\n", in.dtype.peak_key, b.peak,
                     in.device->peak_for(in.dtype.peak_key).source);
  return o;
}

std::string memory_section(const TrainBudget& b, bool explain) {
  const auto& in = b.in;
  const auto& s = b.states;
  const StateBytes sb = state_bytes(in.bytes_per_param);
  std::string o = fmt::format("\nMemory per GPU (tp {}, pp {}, dp {}, ZeRO stage {}, {} bytes/param)\n", in.layout.tp,
                              in.layout.pp, in.layout.dp, in.layout.zero_stage, in.bytes_per_param);
  const int z = in.layout.zero_stage;
  auto row = [&](const char* what, double bytes, double per_param, bool sharded) {
    o += fmt::format("  {:<22} {:>24}   {} B/param x {:.4g} params{}\n", what, gb_and_gib(bytes), per_param,
                     s.params_per_gpu, sharded ? fmt::format(" / dp {}", in.layout.dp) : "");
  };
  row("weights", s.weights, sb.weights, z >= 3);
  row("gradients", s.gradients, sb.gradients, z >= 2);
  row("optimizer states", s.optimizer, sb.optimizer, z >= 1);
  if (b.activations)
    o += fmt::format("  {:<22} {:>24}   {} per layer x L (recompute {}, seq-parallel {})\n", "activations",
                     gb_and_gib(b.activations->total), b.activations->formula, models::to_string(in.recompute),
                     in.sequence_parallel ? "on" : "off");
  else
    o += "  activations            not estimated (needs --model)\n";
  o += fmt::format("  {:<22} {:>24}   of {} HBM: {}\n", "total", gb_and_gib(b.bytes_per_gpu),
                   gb_and_gib(in.device->hbm_bytes), b.fits ? "fits" : "does NOT fit");
  if (b.activations) {
    o += fmt::format("  largest micro-batch that fits: {} (activations are linear in it)\n", b.max_micro_batch);
    if (b.grad_accumulation > 0)
      o += fmt::format("  gradient accumulation: {} steps = global batch {} / (micro-batch {} x dp {})\n",
                       b.grad_accumulation, in.global_batch, in.micro_batch, in.layout.dp);
  }
  if (explain) {
    o += "    model states: mixed-precision Adam. 16 B/param = 2 weights + 2 grads + 12 (fp32 master,\n"
         "      momentum, variance) (Rajbhandari et al. 2020, Sec. 3.1, K = 12); 18 B/param keeps fp32\n"
         "      gradients (Megatron-LM distributed optimizer docs: bf16 param, fp32 grads). ZeRO stage 1\n"
         "      shards the optimizer states over dp, 2 also gradients, 3 also weights.\n"
         "      Parameters are split evenly over tp x pp (an approximation for embeddings).\n";
    if (b.activations)
      o += "    activations: every tensor kept for backward, counted as Korthikanti et al. 2022\n"
           "      (arXiv:2205.05198, Table 2) count a GPT layer (34sbh + 5as^2b), for this architecture:\n      " +
           b.activations->breakdown + "\n      " + (in.flash_attention ? "FlashAttention: no s^2 term. " : "") +
           "With 1F1B the first pipeline stage holds L layers' worth.\n      " + b.activations->plugged + "\n";
  }
  return o;
}

}  // namespace

std::string to_text(const TrainBudget& b, bool explain) {
  const auto& in = b.in;
  const std::string util = in.util_kind == UtilizationKind::Achieved
                               ? fmt::format("{:.4g} TFLOP/s per GPU achieved", in.util / 1e12)
                               : fmt::format("{} {:.3g}", util_name(in.util_kind), in.util);
  std::string o = fmt::format("budget train: {} on {} x {}, {:.4g} tokens, {}\n\n",
                              in.model ? in.model->name : fmt::format("{:.4g}-parameter model", in.params_override),
                              in.gpus, in.device->name, in.tokens, util);
  // A layout that does not fit never ran: say so first, and print no time, cost or energy as if it had.
  if (!b.fits)
    o += fmt::format("DOES NOT FIT: {} per GPU needed, {} of HBM on {}.\n"
                     "The layout cannot run, so no time, cost or energy is given. Use more GPUs, tp/pp,\n"
                     "ZeRO (--zero), recomputation or a smaller micro-batch.\n\n",
                     gb_and_gib(b.bytes_per_gpu), gb_and_gib(in.device->hbm_bytes), in.device->name);
  o += flops_section(b, explain) + step_section(b, explain) + (b.fits ? time_section(b, explain) : "") +
       memory_section(b, explain);
  o += fmt::format(
      "\nConventions: utilisation is {} ({} FLOPs); attention {}; {} B/param; GB = 1e9 B, GiB = 2^30 B;\n"
      "dtype {} dense peak (no 2:4 sparsity).{}\n",
      util_name(in.util_kind), in.util_kind == UtilizationKind::Mfu ? "model" : "hardware",
      in.causal_halving ? "causal-halved (--causal)" : "not causal-halved (pass --causal to halve)",
      in.bytes_per_param, in.dtype.name, explain ? "" : " --explain shows sources.");
  return o;
}

nlohmann::json to_json(const TrainBudget& b) {
  const auto& in = b.in;
  const auto& f = b.flops;
  nlohmann::json j;
  j["model"] = in.model ? in.model->name : "";
  j["device"] = in.device->name;
  j["gpus"] = in.gpus;
  j["tokens"] = in.tokens;
  j["seq"] = in.seq;
  j["utilization"] = {{"kind", util_name(in.util_kind)}, {"value", in.util}};
  j["flops"] = b.counted_flops;
  j["flops_detail"] = {{"six_nd", f.six_nd},           {"attention", f.attention},
                       {"model", f.model_flops},       {"hardware", f.hardware_flops},
                       {"recompute_extra", f.recompute_extra},
                       {"megatron_no_recompute", f.megatron_72}, {"megatron_full_recompute", f.megatron_96},
                       {"n_params", f.n_params}};
  j["peak_flops_per_gpu"] = b.peak;
  // A layout that does not fit never ran: its time, cost and energy are null.
  const auto ran = [&](double v) { return b.fits ? nlohmann::json(v) : nlohmann::json(nullptr); };
  j["time_s"] = ran(b.time_s);
  j["gpu_hours"] = ran(b.gpu_hours);
  j["days"] = ran(b.days);
  j["days_6nd_only"] = ran(b.simple_days);
  j["cost_usd"] = b.price > 0 ? ran(b.cost_usd) : nlohmann::json(nullptr);
  j["energy_kwh"] = ran(b.energy_kwh);
  j["layout"] = {{"tp", in.layout.tp}, {"pp", in.layout.pp}, {"dp", in.layout.dp}, {"zero", in.layout.zero_stage}};
  j["bytes_per_param"] = in.bytes_per_param;
  j["recompute"] = models::to_string(in.recompute);
  j["sequence_parallel"] = in.sequence_parallel;
  j["memory"] = {{"weights", b.states.weights},
                 {"gradients", b.states.gradients},
                 {"optimizer", b.states.optimizer},
                 {"activations", b.activations ? b.activations->total : 0.0},
                 {"params_per_gpu", b.states.params_per_gpu}};
  j["bytes_per_gpu"] = b.bytes_per_gpu;
  j["hbm_bytes"] = in.device->hbm_bytes;
  j["fits"] = b.fits;
  if (b.step)
    j["roofline_step"] = {{"time_s", b.step->time_s}, {"compute_s", b.step->compute_s},
                          {"memory_s", b.step->memory_s}, {"comm_s", b.step->comm_s},
                          {"model_flops", b.step->model_flops}, {"mfu", b.step->roofline_mfu},
                          {"used_for_time", b.util_from_roofline}};
  j["max_micro_batch"] = b.max_micro_batch;
  j["grad_accumulation"] = b.grad_accumulation;
  j["flash_attention"] = in.flash_attention;
  j["conventions"] = {{"causal_halving", in.causal_halving}, {"bytes", "GB = 1e9"}, {"dtype", in.dtype.name}};
  return j;
}

}  // namespace simt::cost
