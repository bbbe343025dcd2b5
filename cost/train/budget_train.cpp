#include "cost/train/budget_train.hpp"

#include "cost/train/layout_check.hpp"
#include "models/params.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace simt::cost {

namespace {

void validate(const TrainBudgetInput& in) {
  if (!in.device) throw std::invalid_argument("a device is required");
  if (!in.model && in.params_override <= 0) throw std::invalid_argument("give a model or a parameter count");
  if (!(in.tokens > 0)) throw std::invalid_argument(fmt::format("tokens must be positive, got {}", in.tokens));
  if (!std::isfinite(in.tokens) || in.tokens > 1e18)
    throw std::invalid_argument(fmt::format("tokens must be finite and at most 1e18, got {}", in.tokens));
  if (in.tokens != std::floor(in.tokens))
    throw std::invalid_argument(fmt::format("tokens must be a whole number, got {}", in.tokens));
  if (in.params_override > 0 && (!std::isfinite(in.params_override) || in.params_override > 1e15 ||
                                 in.params_override != std::floor(in.params_override)))
    throw std::invalid_argument(
        fmt::format("the parameter count must be a whole number from 1 to 1e15, got {}", in.params_override));
  check_layout(in.model, in.gpus, in.layout.tp, in.layout.pp);
  if (in.layout.zero_stage < 0 || in.layout.zero_stage > 3)
    throw std::invalid_argument(fmt::format("ZeRO stage must be 0, 1, 2 or 3, got {}", in.layout.zero_stage));
  require_non_negative(in.price_per_gpu_hour, "the price per GPU-hour");
  if (in.util_kind == UtilizationKind::Roofline && (!in.model || in.params_override > 0))
    throw std::invalid_argument("the roofline MFU needs --model (operators, not a bare parameter count)");
  const bool util_given = in.util_kind != UtilizationKind::Roofline;
  if (util_given && (in.util_kind == UtilizationKind::Achieved ? !(in.util > 0) : !(in.util > 0 && in.util <= 1)))
    throw std::invalid_argument(fmt::format("utilisation must be in (0, 1], got {}", in.util));
  if (in.micro_batch <= 0) throw std::invalid_argument("micro-batch must be positive");
  if (in.global_batch < 0) throw std::invalid_argument("global batch must be positive");
  if (in.seq < 0) throw std::invalid_argument(fmt::format("sequence length must be positive, got {}", in.seq));
  if (in.sequence_parallel && in.layout.tp == 1)
    throw std::invalid_argument("sequence parallelism needs tp > 1 (it shards along the TP group)");
}

models::TrainFlops params_only_flops(double n, double tokens) {
  models::TrainFlops f;
  f.n_params = n;
  f.six_nd = f.model_flops = f.hardware_flops = 6 * n * tokens;
  f.per_token_model = 6 * n;
  return f;
}

// The batch arithmetic of data parallelism: every data-parallel rank runs whole
// micro-batches, so a step takes global batch = dp x b x accumulation sequences,
// and the run at least one step.
void check_batch(const TrainBudgetInput& in) {
  const int64_t per_pass = int64_t(in.layout.dp) * in.micro_batch;  // sequences of one pass over all ranks
  if (in.global_batch > 0 && in.global_batch % per_pass != 0)
    throw std::invalid_argument(fmt::format(
        "global batch {} is not a multiple of dp x micro-batch = {} x {} = {} (global batch % (dp x micro-batch) "
        "must be 0: each data-parallel rank runs whole micro-batches); use {}",
        in.global_batch, in.layout.dp, in.micro_batch, per_pass,
        in.global_batch < per_pass ? fmt::format("{}", per_pass)
                                   : fmt::format("{} or {}", in.global_batch / per_pass * per_pass,
                                                 (in.global_batch / per_pass + 1) * per_pass)));
  const int64_t step_seqs = in.global_batch > 0 ? in.global_batch : per_pass;
  const double step_tokens = double(step_seqs) * double(std::max<int64_t>(in.seq, 1));
  if (in.tokens < step_tokens)
    throw std::invalid_argument(fmt::format(
        "{:.6g} tokens is less than one optimizer step: tokens must be at least one global batch = {} sequences x "
        "{} tokens = {:.6g} tokens ({})",
        in.tokens, step_seqs, std::max<int64_t>(in.seq, 1), step_tokens,
        in.global_batch > 0 ? "the global batch given" : fmt::format("dp {} x micro-batch {}, no global batch given",
                                                                     in.layout.dp, in.micro_batch)));
}

// A utilisation above what the roofline step allows would be a time shorter than
// the kernels can run: MFU <= the roofline MFU, HFU <= it x hardware/model FLOPs,
// achieved FLOP/s <= that HFU x peak.
void check_util_bound(const TrainBudget& b) {
  const auto& in = b.in;
  if (!b.step || in.util_kind == UtilizationKind::Roofline) return;
  const double mfu_bound = b.step->roofline_mfu;
  const double hfu_bound = mfu_bound * b.flops.hardware_flops / b.flops.model_flops;
  const std::string where = fmt::format(
      "the roofline step of {} on {} (micro-batch {} x {} tokens, tp {}, pp {}) runs its operators at best at",
      in.model->name, in.device->name, in.micro_batch, in.seq, in.layout.tp, in.layout.pp);
  if (in.util_kind == UtilizationKind::Mfu && in.util > mfu_bound)
    throw std::invalid_argument(fmt::format(
        "MFU {:.4g} is above the MFU bound {:.1f}%: {} MFU {:.4g} (MFU must be <= the bound); leave the utilisation "
        "out to use the bound",
        in.util, 100 * mfu_bound, where, mfu_bound));
  if (in.util_kind == UtilizationKind::Hfu && in.util > hfu_bound)
    throw std::invalid_argument(fmt::format("HFU {:.4g} is above the HFU bound {:.1f}%: {} HFU {:.4g} (HFU must be <= "
                                            "the bound)",
                                            in.util, 100 * hfu_bound, where, hfu_bound));
  if (in.util_kind == UtilizationKind::Achieved && in.util > hfu_bound * b.peak)
    throw std::invalid_argument(fmt::format(
        "achieved {:.4g} TFLOP/s per GPU is above the bound {:.4g} TFLOP/s: {} HFU {:.4g} of the {:.4g} TFLOP/s peak",
        in.util / 1e12, hfu_bound * b.peak / 1e12, where, hfu_bound, b.peak / 1e12));
}

}  // namespace

TrainBudget train_budget(TrainBudgetInput in) {
  validate(in);
  in.layout.dp = in.gpus / (in.layout.tp * in.layout.pp);
  if (in.model && in.seq == 0) in.seq = in.model->context;
  check_batch(in);
  TrainBudget b;
  b.in = in;
  b.flops = in.model && in.params_override <= 0
                ? models::train_flops(*in.model, {in.tokens, in.seq, in.causal_halving, in.recompute})
                : params_only_flops(in.params_override, in.tokens);
  b.peak = in.device->peak_for(in.dtype.peak_key).value;
  if (in.model && in.params_override <= 0)
    b.step = train_step_time({.model = in.model, .device = in.device, .dtype = in.dtype, .seq = in.seq,
                              .micro_batch = in.micro_batch, .tp = in.layout.tp, .pp = in.layout.pp,
                              .recompute = in.recompute, .flash_attention = in.flash_attention,
                              .causal_halving = in.causal_halving, .topology = in.topology});
  if (in.util_kind == UtilizationKind::Roofline) {
    in.util_kind = UtilizationKind::Mfu;
    in.util = b.step->roofline_mfu;
    b.in = in;
    b.util_from_roofline = true;
  }
  if (in.util_kind == UtilizationKind::Achieved && in.util > b.peak)
    throw std::invalid_argument(fmt::format("achieved {:.4g} TFLOP/s per GPU exceeds the {} {} peak of {:.4g} TFLOP/s",
                                            in.util / 1e12, in.device->name, in.dtype.peak_key, b.peak / 1e12));

  check_util_bound(b);

  // MFU is quoted against useful (model) FLOPs; HFU and measured FLOP/s against
  // what the hardware executes, recomputation included.
  b.counted_flops = in.util_kind == UtilizationKind::Mfu ? b.flops.model_flops : b.flops.hardware_flops;
  const double rate = in.util_kind == UtilizationKind::Achieved ? in.util : b.peak * in.util;
  b.time_s = b.counted_flops / (in.gpus * rate);
  const bool hardware_basis = in.util_kind != UtilizationKind::Mfu;
  b.simple_flops = b.flops.six_nd * (hardware_basis && in.recompute == models::Recompute::Full ? 8.0 / 6.0 : 1.0);
  b.simple_days = b.simple_flops / (in.gpus * rate) / 86400;
  b.gpu_hours = b.time_s * in.gpus / 3600;
  b.days = b.time_s / 86400;
  b.price = in.price_per_gpu_hour > 0 ? in.price_per_gpu_hour : in.device->price_per_hour_usd;
  b.cost_usd = b.gpu_hours * b.price;
  b.energy_kwh = in.gpus * in.device->tdp_watts * b.time_s / 3.6e6;

  // Model states count every stored parameter (all experts, the embedding table).
  const double stored = in.params_override > 0 ? in.params_override
                                                 : double(models::count_params(*in.model).total);
  b.states = model_state_memory(stored, in.layout, in.bytes_per_param);
  if (in.model)
    b.activations = activation_memory(*in.model, {in.seq, in.micro_batch, in.layout.tp, in.sequence_parallel,
                                                  in.recompute, in.flash_attention});
  b.bytes_per_gpu = b.states.total() + (b.activations ? b.activations->total : 0);
  b.fits = b.bytes_per_gpu <= in.device->hbm_bytes;
  if (b.activations) {
    const double per_sequence = b.activations->total / double(in.micro_batch);
    const double free_bytes = in.device->hbm_bytes - b.states.total();
    b.max_micro_batch = free_bytes > 0 ? int64_t(std::floor(free_bytes / per_sequence)) : 0;
  }
  if (in.global_batch > 0) b.grad_accumulation = in.global_batch / (in.micro_batch * in.layout.dp);
  return b;
}

}  // namespace simt::cost
