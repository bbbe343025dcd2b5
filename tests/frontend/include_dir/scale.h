// Found only through `simt exec -I tests/frontend/include_dir`; needs -D FACTOR.
#pragma once
#ifndef FACTOR
#error "FACTOR must be defined (-D FACTOR=...)"
#endif
__device__ inline float scale(float x) { return x * FACTOR; }
