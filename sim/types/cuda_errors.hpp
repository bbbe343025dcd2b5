// CUDA's error codes (the values of CUDA 13's driver_types.h): the launch checks
// below the runtime answer with them, and the runtime API returns them.
#pragma once
#include "sim/types/cuda_error_codes.hpp"

enum cudaError_t {
#define SIMT_CUDA_ERROR_ENUMERATOR(name, value, text) name = value,
  SIMT_CUDA_ERROR_CODES(SIMT_CUDA_ERROR_ENUMERATOR)
#undef SIMT_CUDA_ERROR_ENUMERATOR
};
using cudaError = cudaError_t;
