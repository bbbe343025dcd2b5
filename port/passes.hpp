// The passes of `simt port`, in the order port.cpp runs them. Each one looks at
// the tokens and records edits or issues in the Context; see docs/dialect.md for
// what each rewrite means and why it keeps the program's meaning.
#pragma once
#include "port/context.hpp"

namespace simt::port {

void mark_device_code(Context& c);       // device_regions.cpp: __global__/__device__ functions, __shared__ data
void check_unsupported(Context& c);      // unsupported.cpp: texture, asm, cooperative launch, ... -> errors
void rewrite_includes(Context& c);       // includes.cpp: cuda_runtime.h -> sim/cuda/dialect.cuh
void rewrite_types(Context& c);          // types.cpp: float -> f32, int* -> i32*, ... in device code
void rewrite_dynamic_shared(Context& c); // dynamic_shared.cpp: extern __shared__ T n[]; -> SIMT_DYNAMIC_SHARED(T, n);
void rewrite_launches(Context& c);       // launches.cpp: k<<<g, b>>>(a) -> simt::launch(k, g, b)(a)
void rewrite_expressions(Context& c);    // expressions.cpp: ?: operands, portable math, __ldg

}  // namespace simt::port
