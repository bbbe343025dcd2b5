// Lab 13 without the barrier after the loads: the first step adds cache[tid + 32]
// before thread tid + 32 (another warp) has stored it. The race detector reports it.
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
  __shared__ float cache[kThreads];
  const int tid = threadIdx.x;
  int index[kMaxDims];
  to_index(blockIdx.x, out_shape, dims, index);  // this block's output element
  const int out_pos = index_to_position(index, out_strides, dims);
  index[dim] = tid;  // ... and the input element of this thread
  cache[tid] = tid < a_shape[dim] ? a[index_to_position(index, a_strides, dims)] : 0.0f;

  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (tid < stride) cache[tid] += cache[tid + stride];
    __syncthreads();  // this step's sums are in before the next step reads them
  }
  if (tid == 0) out[out_pos] = cache[0];
}

void launch_reduce(float* out, const int* out_shape, const int* out_strides, int out_size, const float* a,
                   const int* a_shape, const int* a_strides, int dim, int dims) {
  reduce_kernel<<<out_size, kThreads>>>(out, out_shape, out_strides, out_size, a, a_shape, a_strides, dim, dims);
}
