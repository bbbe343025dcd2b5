// simtlab's <math_constants.h>: CUDA's named float and double constants (the
// course's HW4 includes it through cuda_util.h). Same names and values as CUDA's.
#pragma once
#include "cuda_runtime.h"

#define CUDART_INF_F __int_as_float(0x7f800000)
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#define CUDART_MIN_DENORM_F __int_as_float(0x00000001)
#define CUDART_MAX_NORMAL_F __int_as_float(0x7f7fffff)
#define CUDART_NEG_ZERO_F __int_as_float(int(0x80000000U))
#define CUDART_ZERO_F 0.0F
#define CUDART_ONE_F 1.0F
#define CUDART_SQRT_HALF_F 0.707106781F
#define CUDART_SQRT_TWO_F 1.414213562F
#define CUDART_PIO2_F 1.570796327F
#define CUDART_2_OVER_PI_F 0.636619772F
#define CUDART_SQRT_2_OVER_PI_F 0.797884561F
#define CUDART_PI_F 3.141592654F
#define CUDART_L2E_F 1.442695041F
#define CUDART_LN2_F 0.693147181F

#define CUDART_INF __longlong_as_double(0x7ff0000000000000LL)
#define CUDART_NAN __longlong_as_double(static_cast<long long>(0xfff8000000000000ULL))
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_HALF 7.0710678118654757e-1
#define CUDART_PIO2 1.5707963267948966e+0
#define CUDART_PI 3.1415926535897931e+0
#define CUDART_SQRT_2PI 2.5066282746310007e+0
#define CUDART_L2E 1.4426950408889634e+0
#define CUDART_LN2 6.9314718055994529e-1
