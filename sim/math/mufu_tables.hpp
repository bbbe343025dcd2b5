// The measured MUFU tables (sim/math/tables/*.tbl.xz, from tests/cuda/mufu_probe.cu
// on the H200), decoded on first use: a program that never calls expf pays nothing.
#pragma once
#include "sim/math/mufu_model.hpp"

namespace simt::mufu {

// Each flag decodes one table; the returned pointers stay valid for the process.
enum Need : unsigned { kEx2 = 1, kRcp = 2, kRsq = 4, kLg2 = 8, kSin = 16 };
const Tables& tables(unsigned need);

}  // namespace simt::mufu
