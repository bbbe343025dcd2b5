// The map kernel (kernels/map.cu): out = f(in) elementwise over a strided view, one
// thread per output element. Shared with tests/frontend/map_estimate.cu, which checks
// the instruction estimate of its index loops against the H200's.
#pragma once
#include "kernels/strided_tensor.cuh"
#include <cuda_runtime.h>

enum UnaryOp : int { kNeg = 0, kRelu = 1, kSquare = 2 };

__device__ inline float apply_unary(int op, float x) {
  switch (op) {
    case kNeg: return -x;
    case kRelu: return fmaxf(x, 0.0f);
    default: return x * x;
  }
}

__global__ void map_strided(float* out, int size, StridedTensor in, int op) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  int index[kMaxDims];
  to_index(i, in.shape, in.dims, index);  // the output is contiguous in the view's shape
  out[i] = apply_unary(op, in.data[index_to_position(index, in.strides, in.dims)]);
}
