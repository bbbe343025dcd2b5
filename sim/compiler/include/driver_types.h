// CUDA header name: everything is in cuda_runtime.h.
#pragma once
#include "cuda_runtime.h"
