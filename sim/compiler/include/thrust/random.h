// thrust/random.h: simtlab's engines and distributions of CUDA 13's Thrust (a subset:
// the linear congruential engines and the uniform distributions; docs/frontend.md).
#pragma once
#include <thrust/random/linear_congruential_engine.h>
#include <thrust/random/uniform_int_distribution.h>
#include <thrust/random/uniform_real_distribution.h>
