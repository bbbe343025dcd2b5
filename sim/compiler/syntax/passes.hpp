// The passes of the syntax step, in the order syntax.cpp runs them. Each one looks
// at the tokens and records edits or issues in the Context.
#pragma once
#include "sim/compiler/syntax/context.hpp"

namespace simt::syntax {

void mark_device_code(Context& c);       // device_regions.cpp: __global__/__device__ functions, __shared__ data
void rewrite_dynamic_shared(Context& c); // dynamic_shared.cpp: extern __shared__ T n[]; -> SIMT_DYNAMIC_SHARED(T, n);
void rewrite_launches(Context& c);       // launches.cpp: k<<<g, b>>>(a) -> simt::launch(SIMT_KERNEL(k), g, b)(a)
void rewrite_extended_lambdas(Context& c);  // extended_lambdas.cpp: [=] __host__ __device__ (int i) -> [=] (int i)

// Whether code token i is a __host__/__device__ of an extended lambda (between its
// capture list and its parameters): not a declaration's qualifier.
bool lambda_qualifier(const Context& c, std::size_t i);

}  // namespace simt::syntax
