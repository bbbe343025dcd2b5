// CUDA header name: the profiler calls are in cuda_runtime.h (no-ops: nothing to profile).
#pragma once
#include "cuda_runtime.h"
