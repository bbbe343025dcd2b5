// Lab 13 with thread 0 of each block adding the whole dimension in a loop: right
// sums, but one thread reads `a` 33 times while 63 idle, and no barrier.
#include "lab.cuh"

// From lab 12: ordinal -> multi-index (last dimension fastest), multi-index -> position.
__device__ void to_index(int ordinal, const int* shape, int dims, int* index) {
  for (int d = dims - 1; d >= 0; --d) {
    index[d] = ordinal % shape[d];
    ordinal /= shape[d];
  }
}
__device__ int index_to_position(const int* index, const int* strides, int dims) {
  int position = 0;
  for (int d = 0; d < dims; ++d) position += index[d] * strides[d];
  return position;
}

// Block b computes output element b; its thread j loads element j of the reduced
// dimension (threads past a_shape[dim] contribute 0).
__global__ void reduce_kernel(float* out, const int* out_shape, const int* out_strides, int out_size,
                              const float* a, const int* a_shape, const int* a_strides, int dim, int dims) {
  int index[kMaxDims];
  to_index(blockIdx.x, out_shape, dims, index);
  const int out_pos = index_to_position(index, out_strides, dims);
  if (threadIdx.x != 0) return;
  float sum = 0.0f;
  for (int j = 0; j < a_shape[dim]; ++j) {  // thread 0 reads all of them, the others idle
    index[dim] = j;
    sum += a[index_to_position(index, a_strides, dims)];
  }
  out[out_pos] = sum;
}

void launch_reduce(float* out, const int* out_shape, const int* out_strides, int out_size, const float* a,
                   const int* a_shape, const int* a_strides, int dim, int dims) {
  reduce_kernel<<<out_size, kThreads>>>(out, out_shape, out_strides, out_size, a, a_shape, a_strides, dim, dims);
}
