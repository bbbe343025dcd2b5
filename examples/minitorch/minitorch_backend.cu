// A MiniTorch-style CUDA tensor backend (CMU 11-868 / MiniTorch conventions):
// tensors are (storage, shape, strides) with int32 shape and stride arrays, each
// elementwise op has a function id, and the host entry points are extern "C" so
// Python loads the library with ctypes:
//   tensorMap, tensorZip, tensorReduce, MatrixMultiply (batched).
// Each host wrapper copies the operands to the device, launches, and copies the
// result back -- the same contract as the nvcc-built combine.so of the course.
//
// Build:  simt cc --shared examples/minitorch/minitorch_backend.cu -o minitorch_sim.so      (simulator)
//         nvcc --shared -Xcompiler -fPIC --fmad=false examples/minitorch/minitorch_backend.cu -o minitorch_cuda.so
// Test:   python3 tests/python/test_minitorch_ctypes.py minitorch_sim.so
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define MAX_DIMS 10
#define THREADS 256
#define TILE 16

// Function ids, as in the course's fn_map.
enum FnId {
  ADD = 1, MUL = 2, ID = 3, NEG = 4, LT = 5, EQ = 6, SIGMOID = 7, RELU = 8, RELU_BACK = 9,
  LOG = 10, LOG_BACK = 11, EXP = 12, INV = 13, INV_BACK = 14, IS_CLOSE = 15, MAX = 16, POW = 17, TANH = 18,
};

// Transcendentals use simtlab's portable math, so both builds give the same bits.
__device__ float apply(int fn, float x, float y) {
  switch (fn) {
    case ADD: return x + y;
    case MUL: return x * y;
    case ID: return x;
    case NEG: return -x;
    case LT: return x < y ? 1.0f : 0.0f;
    case EQ: return x == y ? 1.0f : 0.0f;
    case SIGMOID: {
      // Two forms so that exp never overflows.
      if (x >= 0.0f) return 1.0f / (1.0f + expf(-x));
      float e = expf(x);
      return e / (1.0f + e);
    }
    case RELU: return x > 0.0f ? x : float(0.0f);
    case RELU_BACK: return x > 0.0f ? y : float(0.0f);
    case LOG: return logf(x);
    case LOG_BACK: return y / x;
    case EXP: return expf(x);
    case INV: return 1.0f / x;
    case INV_BACK: return -y / (x * x);
    case IS_CLOSE: return (x - y < 1e-2f && y - x < 1e-2f) ? 1.0f : 0.0f;
    case MAX: return x > y ? x : y;
    case POW: return expf(y * logf(x));  // x > 0
    case TANH: return tanhf(x);
  }
  return 0.0f;
}

// ordinal -> multi-index in `shape`
__device__ void to_index(int ordinal, const int* shape, int* index, int dims) {
  for (int d = dims - 1; d >= 0; --d) {
    int size = shape[d];
    index[d] = ordinal % size;
    ordinal /= size;
  }
}

__device__ int index_to_position(const int* index, const int* strides, int dims) {
  int pos = 0;
  for (int d = 0; d < dims; ++d) pos += index[d] * strides[d];
  return pos;
}

// The index into a smaller, broadcast tensor: trailing dimensions align, size-1 dimensions repeat.
__device__ void broadcast_index(const int* big_index, int big_dims, const int* shape, int* index, int dims) {
  for (int d = 0; d < dims; ++d) {
    int big_d = d + big_dims - dims;
    index[d] = shape[d] > 1 ? big_index[big_d] : 0;
  }
}

__global__ void mapKernel(float* out, const int* out_shape, const int* out_strides, int out_size, const float* in,
                          const int* in_shape, const int* in_strides, int dims, int fn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_size) return;
  int out_index[MAX_DIMS], in_index[MAX_DIMS];
  to_index(i, out_shape, out_index, dims);
  broadcast_index(out_index, dims, in_shape, in_index, dims);
  float x = in[index_to_position(in_index, in_strides, dims)];
  out[index_to_position(out_index, out_strides, dims)] = apply(fn, x, 0.0f);
}

__global__ void zipKernel(float* out, const int* out_shape, const int* out_strides, int out_size, int out_dims,
                          const float* a, const int* a_shape, const int* a_strides, int a_dims, const float* b,
                          const int* b_shape, const int* b_strides, int b_dims, int fn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= out_size) return;
  int out_index[MAX_DIMS], a_index[MAX_DIMS], b_index[MAX_DIMS];
  to_index(i, out_shape, out_index, out_dims);
  broadcast_index(out_index, out_dims, a_shape, a_index, a_dims);
  broadcast_index(out_index, out_dims, b_shape, b_index, b_dims);
  float x = a[index_to_position(a_index, a_strides, a_dims)];
  float y = b[index_to_position(b_index, b_strides, b_dims)];
  out[index_to_position(out_index, out_strides, out_dims)] = apply(fn, x, y);
}

// One block per output element: each thread folds a strided slice of the reduced
// dimension, then the block combines the partial results in shared memory.
__global__ void reduceKernel(float* out, const int* out_shape, const int* out_strides, int out_size, const float* a,
                             const int* a_shape, const int* a_strides, int reduce_dim, float start, int dims,
                             int fn) {
  __shared__ float partial[THREADS];
  int o = blockIdx.x;
  if (o >= out_size) return;
  int index[MAX_DIMS];
  to_index(o, out_shape, index, dims);
  int out_pos = index_to_position(index, out_strides, dims);
  int len = a_shape[reduce_dim];
  float acc = start;
  for (int j = threadIdx.x; j < len; j += blockDim.x) {
    index[reduce_dim] = j;
    acc = apply(fn, acc, a[index_to_position(index, a_strides, dims)]);
  }
  int tid = threadIdx.x;
  partial[tid] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] = apply(fn, partial[tid], partial[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[out_pos] = partial[0];
}

// out[b] = a[b] @ b[b], shared-memory tiles of TILE x TILE. A batch dimension of
// size 1 broadcasts (stride 0), as in MiniTorch.
__global__ void matmulKernel(float* out, const int* out_strides, const float* a,
                             const int* a_shape, const int* a_strides, const float* b, const int* b_shape,
                             const int* b_strides, int batch) {
  __shared__ float a_tile[TILE][TILE];
  __shared__ float b_tile[TILE][TILE];
  int bz = blockIdx.z;
  int a_batch = a_shape[0] > 1 ? int(a_strides[0]) : 0;
  int b_batch = b_shape[0] > 1 ? int(b_strides[0]) : 0;
  int m = a_shape[1], n = a_shape[2], p = b_shape[2];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += TILE) {
    int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
    a_tile[threadIdx.y][threadIdx.x] =
        (row < m && ka < n) ? a[bz * a_batch + row * a_strides[1] + ka * a_strides[2]] : float(0.0f);
    b_tile[threadIdx.y][threadIdx.x] =
        (kb < n && col < p) ? b[bz * b_batch + kb * b_strides[1] + col * b_strides[2]] : float(0.0f);
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += a_tile[threadIdx.y][k] * b_tile[k][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < p && bz < batch)
    out[bz * out_strides[0] + row * out_strides[1] + col * out_strides[2]] = acc;
}

// ---------------------------------------------------------------- host side

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "minitorch backend: %s: %s\n", what, cudaGetErrorString(e));
    exit(1);
  }
}

// Elements a strided tensor's storage must hold: one past its furthest element.
int storage_extent(const int* shape, const int* strides, int dims) {
  long long last = 0;
  for (int d = 0; d < dims; ++d) {
    if (shape[d] == 0) return 0;
    last += (long long)(shape[d] - 1) * strides[d];
  }
  return (int)(last + 1);
}

template <class T>
T* to_device(const T* host, int count) {
  T* d = nullptr;
  check(cudaMalloc(&d, (count > 0 ? count : 1) * sizeof(T)), "cudaMalloc");
  if (count > 0) check(cudaMemcpy(d, host, count * sizeof(T), cudaMemcpyHostToDevice), "copy to device");
  return d;
}

void to_host(float* host, const float* device, int count) {
  check(cudaMemcpy(host, device, count * sizeof(float), cudaMemcpyDeviceToHost), "copy to host");
}

// A tensor's three device arrays.
struct DeviceTensor {
  float* storage;
  int* shape;
  int* strides;
  int extent;
  DeviceTensor(const float* s, const int* sh, const int* st, int dims)
      : storage(to_device(s, storage_extent(sh, st, dims))),
        shape(to_device(sh, dims)),
        strides(to_device(st, dims)),
        extent(storage_extent(sh, st, dims)) {}
  ~DeviceTensor() {
    cudaFree(storage);
    cudaFree(shape);
    cudaFree(strides);
  }
};

void finish_launch(const char* kernel) {
  check(cudaGetLastError(), kernel);
  check(cudaDeviceSynchronize(), kernel);
}

}  // namespace

extern "C" {

void tensorMap(float* out, int* out_shape, int* out_strides, int out_size, float* in_storage, int* in_shape,
               int* in_strides, int in_size, int shape_size, int fn_id) {
  (void)in_size;
  DeviceTensor o(out, out_shape, out_strides, shape_size), in(in_storage, in_shape, in_strides, shape_size);
  int blocks = (out_size + THREADS - 1) / THREADS;
  mapKernel<<<blocks, THREADS>>>(o.storage, o.shape, o.strides, out_size, in.storage, in.shape, in.strides,
                                           shape_size, fn_id);
  finish_launch("mapKernel");
  to_host(out, o.storage, o.extent);
}

void tensorZip(float* out, int* out_shape, int* out_strides, int out_size, int out_shape_size, float* a_storage,
               int* a_shape, int* a_strides, int a_size, int a_shape_size, float* b_storage, int* b_shape,
               int* b_strides, int b_size, int b_shape_size, int fn_id) {
  (void)a_size;
  (void)b_size;
  DeviceTensor o(out, out_shape, out_strides, out_shape_size);
  DeviceTensor a(a_storage, a_shape, a_strides, a_shape_size), b(b_storage, b_shape, b_strides, b_shape_size);
  int blocks = (out_size + THREADS - 1) / THREADS;
  zipKernel<<<blocks, THREADS>>>(o.storage, o.shape, o.strides, out_size, out_shape_size, a.storage,
                                           a.shape, a.strides, a_shape_size, b.storage, b.shape, b.strides,
                                           b_shape_size, fn_id);
  finish_launch("zipKernel");
  to_host(out, o.storage, o.extent);
}

void tensorReduce(float* out, int* out_shape, int* out_strides, int out_size, float* in_storage, int* in_shape,
                  int* in_strides, int reduce_dim, double reduce_value, int shape_size, int fn_id) {
  DeviceTensor o(out, out_shape, out_strides, shape_size), in(in_storage, in_shape, in_strides, shape_size);
  reduceKernel<<<out_size, THREADS>>>(o.storage, o.shape, o.strides, out_size, in.storage, in.shape,
                                                in.strides, reduce_dim, (float)reduce_value, shape_size, fn_id);
  finish_launch("reduceKernel");
  to_host(out, o.storage, o.extent);
}

void MatrixMultiply(float* out, int* out_shape, int* out_strides, float* a_storage, int* a_shape, int* a_strides,
                    float* b_storage, int* b_shape, int* b_strides, int batch, int m, int p) {
  DeviceTensor o(out, out_shape, out_strides, 3);
  DeviceTensor a(a_storage, a_shape, a_strides, 3), b(b_storage, b_shape, b_strides, 3);
  dim3 block(TILE, TILE);
  dim3 grid((p + TILE - 1) / TILE, (m + TILE - 1) / TILE, batch);
  matmulKernel<<<grid, block>>>(o.storage, o.strides, a.storage, a.shape, a.strides, b.storage,
                                          b.shape, b.strides, batch);
  finish_launch("matmulKernel");
  to_host(out, o.storage, o.extent);
}

}  // extern "C"
