// Lab 12 with to_index peeling off the FIRST dimension first. It is still a one-to-one
// numbering of the elements, so every output is written once and right, but thread i
// no longer writes element i: neighbouring lanes store floats b * a apart.
#include "lab.cuh"

__device__ void to_index(int ordinal, const int* shape, int dims, int* index) {
  for (int d = 0; d < dims; ++d) {  // the first dimension fastest
    index[d] = ordinal % shape[d];
    ordinal /= shape[d];
  }
}

__device__ int index_to_position(const int* index, const int* strides, int dims) {
  int position = 0;
  for (int d = 0; d < dims; ++d) position += index[d] * strides[d];
  return position;
}

__global__ void map_kernel(float* out, const int* out_shape, const int* out_strides, int out_size,
                           const float* in, const int* in_shape, const int* in_strides, int dims) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_size) return;
  int index[kMaxDims];
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
