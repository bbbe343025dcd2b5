// Lab 22 — MiniTorch's zip through ctypes (labs/22-minitorch-zip/README.md).
// Build it as the course builds combine.so and run the harness:
//   simt cc --shared zip_backend.cu -o zip.so && python3 harness.py zip.so
// Check it: simt lab check minitorch-zip zip_backend.cu
// A shared library, as the course's combine.so: Python (harness.py) loads it with
// ctypes and calls tensorZip on numpy arrays.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define MAX_DIMS 8
#define THREADS 256

// fn: 0 adds, 1 multiplies (the harness's ids).
__device__ float apply(int fn, float x, float y) { return fn == 0 ? x + y : x * y; }

// ordinal -> multi-index in `shape`, the last dimension fastest.
__device__ void to_index(int ordinal, const int* shape, int* index, int dims) {
  // TODO 1: fill index[0..dims) so that the last dimension varies fastest:
  //         ordinal 0, 1, 2 ... of shape (2, 3) are (0,0), (0,1), (0,2), (1,0) ...
  for (int d = 0; d < dims; ++d) index[d] = 0;
}

__device__ int index_to_position(const int* index, const int* strides, int dims) {
  int pos = 0;
  for (int d = 0; d < dims; ++d) pos += index[d] * strides[d];
  return pos;
}

// The index into a smaller, broadcast tensor: trailing dimensions align, size-1 ones repeat.
__device__ void broadcast_index(const int* big_index, int big_dims, const int* shape, int* index, int dims) {
  // TODO 2: the smaller tensor's dimension d lines up with the big one's d + big_dims - dims
  //         (trailing dimensions align); where its size is 1, the index is 0.
  for (int d = 0; d < dims; ++d) index[d] = big_index[d];
}

__global__ void zip_kernel(float* out, const int* out_shape, const int* out_strides, int out_size, int out_dims,
                           const float* a, const int* a_shape, const int* a_strides, int a_dims, const float* b,
                           const int* b_shape, const int* b_strides, int b_dims, int fn) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_size) return;
  int out_index[MAX_DIMS], a_index[MAX_DIMS], b_index[MAX_DIMS];
  to_index(i, out_shape, out_index, out_dims);
  broadcast_index(out_index, out_dims, a_shape, a_index, a_dims);
  broadcast_index(out_index, out_dims, b_shape, b_index, b_dims);
  const float x = a[index_to_position(a_index, a_strides, a_dims)];
  const float y = b[index_to_position(b_index, b_strides, b_dims)];
  out[index_to_position(out_index, out_strides, out_dims)] = apply(fn, x, y);
}

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "tensorZip: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

// A host array on the device (the caller frees it).
template <class T>
T* device_copy(const T* host, int count) {
  T* d = nullptr;
  check(cudaMalloc(&d, sizeof(T) * (count > 0 ? count : 1)), "cudaMalloc");
  check(cudaMemcpy(d, host, sizeof(T) * count, cudaMemcpyHostToDevice), "cudaMemcpy");
  return d;
}

}  // namespace

// out = fn(a, b) with broadcasting; every array is host memory, as ctypes passes it.
extern "C" void tensorZip(float* out, int* out_shape, int* out_strides, int out_size, int out_dims, float* a,
                          int* a_shape, int* a_strides, int a_size, int a_dims, float* b, int* b_shape,
                          int* b_strides, int b_size, int b_dims, int fn) {
  float* d_out = device_copy(out, out_size);
  float* d_a = device_copy(a, a_size);
  float* d_b = device_copy(b, b_size);
  int* d_out_shape = device_copy(out_shape, out_dims);
  int* d_out_strides = device_copy(out_strides, out_dims);
  int* d_a_shape = device_copy(a_shape, a_dims);
  int* d_a_strides = device_copy(a_strides, a_dims);
  int* d_b_shape = device_copy(b_shape, b_dims);
  int* d_b_strides = device_copy(b_strides, b_dims);
  const int blocks = (out_size + THREADS - 1) / THREADS;
  zip_kernel<<<blocks, THREADS>>>(d_out, d_out_shape, d_out_strides, out_size, out_dims, d_a, d_a_shape, d_a_strides,
                                  a_dims, d_b, d_b_shape, d_b_strides, b_dims, fn);
  check(cudaGetLastError(), "launch");
  check(cudaMemcpy(out, d_out, sizeof(float) * out_size, cudaMemcpyDeviceToHost), "cudaMemcpy back");
  for (void* p : {(void*)d_out, (void*)d_a, (void*)d_b, (void*)d_out_shape, (void*)d_out_strides, (void*)d_a_shape,
                  (void*)d_a_strides, (void*)d_b_shape, (void*)d_b_strides})
    cudaFree(p);
}
