// Lab 13 — HW1's reduce: sum one dimension of a tensor, one block per output element.
// Read labs/13-hw1-reduce/README.md (simt lab show hw1-reduce).
// Check your work: simt lab check hw1-reduce reduce.cu
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

  // TODO 1: every thread must see the other threads' values before adding them.
  // TODO 2: add the kThreads values of `cache` into cache[0] in shared memory: at each
  //         step, threads tid < stride add cache[tid + stride] into cache[tid],
  //         stride = blockDim.x / 2, then / 4, ... down to 1 — with a barrier after
  //         every step, reached by every thread of the block.
  if (tid == 0) out[out_pos] = cache[0];  // only this thread's own value, for now
}

void launch_reduce(float* out, const int* out_shape, const int* out_strides, int out_size, const float* a,
                   const int* a_shape, const int* a_strides, int dim, int dims) {
  reduce_kernel<<<out_size, kThreads>>>(out, out_shape, out_strides, out_size, a, a_shape, a_strides, dim, dims);
}
