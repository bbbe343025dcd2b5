// Code that tests CUDA's own include guards and version (NVIDIA's samples'
// helper_cuda.h: #ifdef __DRIVER_TYPES_H__, #ifdef __CUDA_RUNTIME_H__) sees them as
// with CUDA 13's headers.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>

#ifdef __DRIVER_TYPES_H__
// As helper_cuda.h defines it.
static const char* _cudaGetErrorEnum(cudaError_t error) { return cudaGetErrorName(error); }
#endif

int main() {
  int seen = 0;
#ifdef __CUDA_RUNTIME_H__
  seen |= 1;
#endif
#ifdef __CUDA_RUNTIME_API_H__
  seen |= 2;
#endif
#ifdef __DRIVER_TYPES_H__
  seen |= 4;
  printf("%s\n", _cudaGetErrorEnum(cudaErrorInvalidValue));
#endif
#ifdef __CUDA_FP16_H__
  seen |= 8;
#endif
#ifdef __CUDA_BF16_H__
  seen |= 16;
#endif
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
  seen |= 32;
#endif
  printf("guards %d CUDART_VERSION %d\n", seen, CUDART_VERSION);
  return 0;
}
