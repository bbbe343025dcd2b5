// A warp's wmma::mma_sync as the per-site table files it (sim/count/site_counts.hpp):
// one kind per (input precision, tensor-pipe instructions), so that a site's count
// times what its kind says gives the tensor counters (docs/counters.md, "Tensor cores").
#pragma once
#include <cstdint>

namespace simt {

enum class TensorMath : std::uint32_t { Half, Tf32, Int8 };  // fp16/bf16, tf32, s8/u8 inputs

inline constexpr std::uint32_t kTensorKind = 128;  // above the FpOps, below 255 (collectives)
inline constexpr std::uint32_t kTensorKindEnd = kTensorKind + 3 * 16;

// insts: the tensor-pipe SASS instructions one mma_sync is (HMMA/IMMA, < 16).
constexpr std::uint32_t tensor_kind(TensorMath math, std::uint32_t insts) {
  return kTensorKind + static_cast<std::uint32_t>(math) * 16 + insts;
}
constexpr bool is_tensor_kind(std::uint32_t kind) { return kind >= kTensorKind && kind < kTensorKindEnd; }
constexpr TensorMath tensor_math(std::uint32_t kind) { return TensorMath((kind - kTensorKind) / 16); }
constexpr std::uint32_t tensor_insts(std::uint32_t kind) { return (kind - kTensorKind) % 16; }
// Every shape in wmma's scope multiplies 4096 pairs (m16n16k16, m32n8k16, m8n32k16)
// except tf32's m16n16k8 (2048): FLOPs (or integer ops) = 2 x m x n x k.
constexpr std::uint64_t tensor_flops(TensorMath math) { return math == TensorMath::Tf32 ? 4096 : 8192; }

}  // namespace simt
