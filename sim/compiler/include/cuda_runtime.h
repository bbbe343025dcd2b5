// simtlab's <cuda_runtime.h> for the compiler front end (docs/frontend.md): the
// learner's unchanged CUDA file is compiled as C++ by clang, and simtlab's LLVM
// pass instruments its device code. This header supplies CUDA's keywords, built-in
// variables and device functions, vector types and the runtime API.
#pragma once
// Code shared with other builds can test for simtlab's compiler front end with this.
#ifndef SIMT_CLANG_FRONTEND
#define SIMT_CLANG_FRONTEND 1
#endif
// The include guards and version of CUDA 13's own headers, which code tests to see
// what is included (NVIDIA's samples' helper_cuda.h: #ifdef __CUDA_RUNTIME_H__,
// #ifdef __DRIVER_TYPES_H__; Thrust 1.x undefines __host__ and __device__ unless
// __HOST_DEFINES_H__ is set): everything they declare is declared here.
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__
#endif
#ifndef __CUDA_RUNTIME_API_H__
#define __CUDA_RUNTIME_API_H__
#endif
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__
#endif
#ifndef __DRIVER_TYPES_H__
#define __DRIVER_TYPES_H__
#endif
#ifndef CUDART_VERSION
#define CUDART_VERSION 13000
#endif

// The pass finds simtlab's headers (which it must not instrument) from this path.
extern "C" __attribute__((weak, used)) const char __simt_runtime_header[] = __FILE__;

// The runtime and the standard headers first: libstdc++ spells attributes such
// as __noinline__ that CUDA's keywords below would change.
#include "sim/state/context.hpp"  // launch.hpp uses the thread state without including it
#include "sim/cuda/launch.hpp"
#include "sim/cuda/runtime.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

// Device code is what these annotations mark, and everything it calls. Kernels
// also carry an ABI tag: the simulator tells their __shared__ variables apart by it.
#define __global__ __attribute__((annotate("simt_global"), abi_tag("simt_kernel")))
#define __device__ __attribute__((annotate("simt_device")))
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
// One copy per worker thread, found by the simulator in the module's TLS (sim/symbols.cpp).
#define __shared__ thread_local
// Read through the constant cache on the GPU (no LDG): not counted (docs/frontend.md).
#define __constant__ __attribute__((annotate("simt_constant")))
#define __managed__

#include "simt_cuda/device_builtins.h"
#include "simt_cuda/device_clock.h"
#include "simt_cuda/hooks.h"
#include "simt_cuda/device_math.h"
#include "simt_cuda/runtime_extras.h"
#include "simt_cuda/vector_types.h"
#include "simt_cuda/cooperative_launch.h"
