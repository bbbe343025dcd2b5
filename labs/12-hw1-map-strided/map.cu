// Lab 12 — HW1's map over strided tensors: from a thread's number to a storage
// position. Read labs/12-hw1-map-strided/README.md (simt lab show hw1-map-strided).
// Check your work: simt lab check hw1-map-strided map.cu
#include "lab.cuh"

// Ordinal -> multi-index: the inverse of walking `shape` in row-major order, the last
// dimension fastest. E.g. shape (3, 4, 5): ordinal 27 -> (1, 1, 2), since
// 27 = 1 * 20 + 1 * 5 + 2.
__device__ void to_index(int ordinal, const int* shape, int dims, int* index) {
  // TODO 1: fill index[0..dims-1]. Peel off the last dimension first:
  //         index[dims-1] = ordinal % shape[dims-1], then divide ordinal by shape[dims-1],
  //         and so on down to dimension 0.
  for (int d = 0; d < dims; ++d) index[d] = 0;
}

// Multi-index -> position in storage: the dot product of index and strides.
__device__ int index_to_position(const int* index, const int* strides, int dims) {
  // TODO 2: return index[0] * strides[0] + ... + index[dims-1] * strides[dims-1].
  return 0;
}

__global__ void map_kernel(float* out, const int* out_shape, const int* out_strides, int out_size,
                           const float* in, const int* in_shape, const int* in_strides, int dims) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_size) return;
  int index[kMaxDims];
  // Thread i takes the i-th element of the OUTPUT in row-major order; in and out share
  // the shape, so the same index names the input element, at the input's own strides.
  to_index(i, out_shape, dims, index);
  const int in_pos = index_to_position(index, in_strides, dims);
  const int out_pos = index_to_position(index, out_strides, dims);
  out[out_pos] = fn(in[in_pos]);
}

void launch_map(float* out, const int* out_shape, const int* out_strides, int out_size, const float* in,
                const int* in_shape, const int* in_strides, int dims) {
  const unsigned threads = 128;
  map_kernel<<<lab::blocks_for(out_size, threads), threads>>>(out, out_shape, out_strides, out_size, in, in_shape,
                                                               in_strides, dims);
}
